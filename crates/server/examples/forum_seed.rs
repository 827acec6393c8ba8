//! Fills an empty club's forum with years of talk, for measuring the forum's
//! search and pages on a large forum (`bench/forum-search.sh`): 300 members, 2,000
//! topics and 100,000 posts written over five years, stored through the server's own
//! store functions (so the search index is kept as the server keeps it), not 100,000
//! HTTP requests.
//!
//! ```text
//! cargo build --release -p chancery-server --example forum_seed
//! target/release/examples/forum_seed DATABASE [TOPICS POSTS]
//! ```
//!
//! `DATABASE` is what the server's `--database` takes (an SQLite path or a
//! `postgres://` URL). The text is English-like: words drawn by Zipf's law (the n-th
//! most common word n times rarer than the first) from function words, the talk of a
//! Diplomacy club, the Standard map's provinces and a long tail of 20,000 rarer words;
//! posts of 10 to 400 words, most between 30 and 120, some quoting. Every 50th post
//! starts a topic; a reply goes to one of the twenty liveliest recent topics or, one time
//! in four, revives an older one. One post in a hundred is hidden by a moderator. The
//! same seed gives the same forum.

use chancery_server::db::{new_id, Db};
use chancery_server::store::{accounts, forum};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The commonest words of English prose, most common first.
const FUNCTION: &str = "the to and a of i in is that it you for we be on have with not this but are as will if at
    so can my he they would your all do me or what there from by was an about just think his one
    get no their up out them like then if would could should our more been some when which
    only also now than too very any how much where here because well still";

/// A Diplomacy club's talk, most common first; `game`, `army` and `move` among the
/// commonest of all.
const CLUB: &str = "game army move fleet support turn spring fall orders attack alliance deal
    centre centers england france germany italy austria russia turkey build unit stab peace
    war draw solo player players gm deadline press retreat hold convoy disband position
    trust ally enemy border front line north south east west sea land coast victory defend
    defence capture take lost winter year years season phase opening variant rules judge
    forum map supply dot dots neutral home talk message letter reply thanks sorry agree
    offer treaty promise lie truth honest plan strategy tactic tempo gambit lepanto juggernaut
    wicked witch sealion triple double stalemate armistice guarantee partition carve share
    bounce standoff dislodge cut standoffs vacant civil disorder replacement seat join
    league tournament club score ranking rating points season friday weekend night evening";

/// The Standard map's provinces, in the names players write.
const PROVINCES: &str = "Bohemia|Budapest|Galicia|Trieste|Tyrolia|Vienna|Clyde|Edinburgh|Liverpool|London|Wales|Yorkshire|\
    Brest|Burgundy|Gascony|Marseilles|Paris|Picardy|Berlin|Kiel|Munich|Prussia|Ruhr|Silesia|Apulia|Naples|Piedmont|\
    Rome|Tuscany|Venice|Livonia|Moscow|Sevastopol|St Petersburg|Ukraine|Warsaw|Ankara|Armenia|Constantinople|Smyrna|\
    Syria|Albania|Belgium|Bulgaria|Finland|Greece|Holland|Norway|North Africa|Portugal|Rumania|Serbia|Spain|Sweden|Tunis|\
    Adriatic Sea|Aegean Sea|Baltic Sea|Barents Sea|Black Sea|Eastern Mediterranean|English Channel|Gulf of Bothnia|\
    Gulf of Lyon|Helgoland Bight|Ionian Sea|Irish Sea|Mid-Atlantic Ocean|North Atlantic Ocean|North Sea|\
    Norwegian Sea|Skagerrak|Tyrrhenian Sea|Western Mediterranean";

const TAIL_WORDS: usize = 20_000;
const MEMBERS: usize = 300;
const YEARS_MS: i64 = 5 * 365 * 24 * 3600 * 1000;

/// The forum's words, most common first, and a sampler of Zipf's law over them.
struct Words {
    words: Vec<String>,
    /// Cumulative weights (1/rank), for a binary search.
    cumulative: Vec<f64>,
}

impl Words {
    fn new(rng: &mut StdRng) -> Words {
        let mut words: Vec<String> = Vec::new();
        let function: Vec<&str> = FUNCTION.split_whitespace().collect();
        let club: Vec<&str> = CLUB.split_whitespace().collect();
        // The club's commonest words among the commonest of all.
        words.extend(function[..10].iter().map(|w| w.to_string()));
        words.extend(club[..3].iter().map(|w| w.to_string()));
        words.extend(function[10..].iter().map(|w| w.to_string()));
        words.extend(club[3..].iter().map(|w| w.to_string()));
        words.extend(PROVINCES.split('|').map(str::to_string));
        const SYLLABLES: [&str; 24] = [
            "ar", "be", "con", "da", "el", "fi", "gan", "hu", "in", "jo", "ka", "lo", "mi", "ne", "or", "pa", "qui",
            "ro", "sa", "tu", "ur", "ve", "wy", "zel",
        ];
        while words.len() < function.len() + club.len() + 75 + TAIL_WORDS {
            let n = rng.gen_range(2..=4);
            let w: String = (0..n).map(|_| SYLLABLES[rng.gen_range(0..SYLLABLES.len())]).collect();
            words.push(w);
        }
        let mut total = 0.0;
        let cumulative = (1..=words.len())
            .map(|rank| {
                total += 1.0 / rank as f64;
                total
            })
            .collect();
        Words { words, cumulative }
    }

    fn pick(&self, rng: &mut StdRng) -> &str {
        let x = rng.gen::<f64>() * self.cumulative.last().copied().unwrap_or(1.0);
        let i = self.cumulative.partition_point(|c| *c < x);
        &self.words[i.min(self.words.len() - 1)]
    }

    /// A sentence of 4 to 18 words, capitalised, with a full stop or a question mark.
    fn sentence(&self, rng: &mut StdRng) -> String {
        let n = rng.gen_range(4..=18);
        let mut s: Vec<String> = (0..n).map(|_| self.pick(rng).to_string()).collect();
        if let Some(first) = s.first_mut() {
            let mut c = first.chars();
            if let Some(head) = c.next() {
                *first = head.to_uppercase().chain(c).collect();
            }
        }
        format!("{}{}", s.join(" "), if rng.gen_bool(0.2) { "?" } else { "." })
    }

    /// A post of about `words` words in paragraphs, sometimes opening with a quote.
    fn post(&self, rng: &mut StdRng, words: usize) -> String {
        let mut out = String::new();
        if rng.gen_bool(0.15) {
            out.push_str(&format!("> {}\n\n", self.sentence(rng)));
        }
        let mut written = 0;
        while written < words {
            let sentence = self.sentence(rng);
            written += sentence.split_whitespace().count();
            out.push_str(&sentence);
            out.push(if rng.gen_bool(0.2) { '\n' } else { ' ' });
            if rng.gen_bool(0.1) {
                out.push('\n');
            }
        }
        out.trim_end().to_string()
    }
}

/// A post's length in words: most between 30 and 120, a few long letters.
fn post_length(rng: &mut StdRng) -> usize {
    // A log-normal length around 60 words.
    let normal: f64 = (0..12).map(|_| rng.gen::<f64>()).sum::<f64>() - 6.0;
    ((60f64.ln() + 0.7 * normal).exp() as usize).clamp(10, 400)
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let Some(url) = args.next() else {
        eprintln!("usage: forum_seed DATABASE [TOPICS POSTS]");
        std::process::exit(2);
    };
    let topics: usize = args.next().map_or(2_000, |t| t.parse().expect("TOPICS: a number"));
    let posts: usize = args.next().map_or(100_000, |p| p.parse().expect("POSTS: a number"));
    let started = std::time::Instant::now();
    let db = Db::open(&url).await.unwrap_or_else(|e| panic!("{e}"));
    if forum::count(&db.read).await.expect("count topics") > 0 {
        eprintln!("the forum has topics already: seed an empty club");
        std::process::exit(1);
    }
    let mut rng = StdRng::seed_from_u64(1901);
    let words = Words::new(&mut rng);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_millis() as i64;
    let start = now - YEARS_MS;
    let mut tx = db.write.begin().await.expect("a transaction");
    let mut members = Vec::new();
    for i in 0..MEMBERS {
        let id = chancery_server::model::AccountId(new_id());
        // Never logged into: no password hash would check.
        accounts::insert(&mut *tx, id, &format!("member-{i:03}"), "seeded", start)
            .await
            .expect("an account");
        members.push(id);
    }
    let every = (posts / topics.max(1)).max(1);
    let mut opened: Vec<chancery_server::model::TopicId> = Vec::new();
    let mut hidden = 0;
    for k in 0..posts {
        let at = start + (YEARS_MS / posts as i64) * k as i64;
        // Early members write more: a club has its regulars.
        let author = members[(rng.gen::<f64>().powi(2) * MEMBERS as f64) as usize];
        let topic = if k % every == 0 && opened.len() < topics {
            let id = chancery_server::model::TopicId(new_id());
            let n = rng.gen_range(3..=8);
            let title: Vec<&str> = (0..n).map(|_| words.pick(&mut rng)).collect();
            let mut title = title.join(" ");
            title.truncate(120);
            forum::insert_topic(
                &mut *tx,
                &forum::NewTopic {
                    id,
                    title: &title,
                    author,
                    game_id: None,
                    created_ms: at,
                },
            )
            .await
            .expect("a topic");
            opened.push(id);
            id
        } else if rng.gen_bool(0.75) {
            let recent = opened.len().min(20);
            opened[opened.len() - 1 - rng.gen_range(0..recent)]
        } else {
            opened[rng.gen_range(0..opened.len())]
        };
        let id = chancery_server::model::PostId(new_id());
        let length = post_length(&mut rng);
        let body = words.post(&mut rng, length);
        forum::insert_post(
            &mut tx,
            &forum::NewPost {
                id,
                topic_id: topic,
                author,
                body: &body,
                created_ms: at,
            },
        )
        .await
        .expect("a post");
        if rng.gen_bool(0.01) {
            forum::set_hidden(&mut *tx, id, Some((members[0], "seeded: off topic")), at)
                .await
                .expect("hide a post");
            hidden += 1;
        }
        if k % 1_000 == 999 {
            tx.commit().await.expect("commit");
            tx = db.write.begin().await.expect("a transaction");
        }
    }
    tx.commit().await.expect("commit");
    println!(
        "seeded {MEMBERS} members, {} topics, {posts} posts ({hidden} hidden) in {:.1} s",
        opened.len(),
        started.elapsed().as_secs_f64()
    );
}
