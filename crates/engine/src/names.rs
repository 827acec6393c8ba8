//! The names a player may type for spaces and powers, split into words once when the
//! variant loads, so that reading an order looks names up word by word in place: no
//! string is built per name, and a name of several words is found in one lookup of its
//! first word instead of one lookup per possible length.

use std::cmp::Ordering;

/// Folds case, dots and the spacing/hyphen differences people type.
pub fn normalise_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut last_space = true;
    for c in name.trim().chars() {
        let c = c.to_ascii_lowercase();
        if c == '.' || c == '\'' {
            continue;
        }
        if c.is_whitespace() || c == '-' || c == '_' {
            if !last_space {
                out.push(' ');
                last_space = true;
            }
        } else {
            out.push(c);
            last_space = false;
        }
    }
    while out.ends_with(' ') {
        out.pop();
    }
    // A name of separators alone (`_`, `-`) folds to nothing, and no order could name
    // it: such a name is its own single word instead, lowercased.
    if out.is_empty() {
        return name.trim().to_ascii_lowercase();
    }
    out
}

/// Names of one kind (spaces or powers), each as its normalised words (lowercase, no
/// dots or apostrophes: [`normalise_name`]), sorted so that the names starting
/// with one word lie together.
#[derive(Clone, Debug, Default)]
pub struct NameTable<T> {
    entries: Vec<(Vec<Box<str>>, T)>,
    /// Where the entries whose first word has each `key` lie (key, first entry, count):
    /// a hash table with open addressing, at most half full, so that finding the names
    /// that begin with a typed word costs one probe or two, not a binary search.
    slots: Vec<(u64, u32, u32)>,
}

impl<T: Copy> NameTable<T> {
    /// A table of normalised names (as `normalise_name` gives them) and what each names.
    pub fn new<'a>(names: impl IntoIterator<Item = (&'a str, T)>) -> Self {
        let mut entries: Vec<(Vec<Box<str>>, T)> = names
            .into_iter()
            .map(|(n, t)| (n.split(' ').filter(|w| !w.is_empty()).map(Box::from).collect(), t))
            .filter(|(words, _): &(Vec<Box<str>>, T)| !words.is_empty())
            .collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        // Sorted entries with one key are contiguous: one slot per run.
        let mut runs: Vec<(u64, u32, u32)> = Vec::new();
        for (i, (words, _)) in entries.iter().enumerate() {
            let k = key(words[0].bytes());
            match runs.last_mut() {
                Some(run) if run.0 == k => run.2 += 1,
                _ => runs.push((k, i as u32, 1)),
            }
        }
        let size = (runs.len() * 2).next_power_of_two().max(2);
        let mut slots = vec![(EMPTY, 0, 0); size];
        for run in runs {
            let mut i = slot(run.0, size);
            while slots[i].0 != EMPTY {
                i = (i + 1) & (size - 1);
            }
            slots[i] = run;
        }
        NameTable { entries, slots }
    }

    /// The entries whose first word packs to `k`.
    fn with_key(&self, k: u64) -> &[(Vec<Box<str>>, T)] {
        let size = self.slots.len();
        if size == 0 || k == EMPTY {
            return &[];
        }
        let mut i = slot(k, size);
        loop {
            let (at, start, n) = self.slots[i];
            if at == k {
                return &self.entries[start as usize..(start + n) as usize];
            }
            if at == EMPTY {
                return &[];
            }
            i = (i + 1) & (size - 1);
        }
    }

    /// The longest name formed by the words `word(0)`, `word(1)`, … (`None` ends them),
    /// and how many words it takes. Words are compared ignoring ASCII case, dots and
    /// apostrophes, as `normalise_name` folds them.
    pub fn longest<'w>(&self, word: impl Fn(usize) -> Option<&'w str>) -> Option<(T, usize)> {
        let first = word(0)?;
        let typed = key(first
            .bytes()
            .filter(|&b| b != b'.' && b != b'\'')
            .map(|b| b.to_ascii_lowercase()));
        let mut best: Option<(T, usize)> = None;
        for (words, t) in self.with_key(typed) {
            // Words longer than a key can share one.
            if compare_word(&words[0], first) != Ordering::Equal {
                continue;
            }
            let len = words.len();
            let matches = words[1..]
                .iter()
                .enumerate()
                .all(|(k, w)| word(k + 1).is_some_and(|typed| compare_word(w, typed) == Ordering::Equal));
            if matches && best.is_none_or(|(_, n)| len > n) {
                best = Some((*t, len));
            }
        }
        best
    }

    /// What exactly the whole of `text` names, its words split as `normalise_name`
    /// splits them.
    pub fn find(&self, text: &str) -> Option<T> {
        let word = |k: usize| text.split(is_separator).filter(|w| !is_empty_word(w)).nth(k);
        let count = text.split(is_separator).filter(|w| !is_empty_word(w)).count();
        if count == 0 {
            // A name of separators alone (`_`) is one word, as `normalise_name` keeps it.
            let whole = text.trim();
            return match self.longest(|k| (k == 0 && !whole.is_empty()).then_some(whole)) {
                Some((t, 1)) => Some(t),
                _ => None,
            };
        }
        match self.longest(word) {
            Some((t, n)) if n == count => Some(t),
            _ => None,
        }
    }
}

/// No word packs to this: a word has a first byte.
const EMPTY: u64 = 0;

/// A slot for key `k` in a table of `size` (a power of two) slots: Fibonacci hashing,
/// the top bits of the key times 2^64 / φ.
fn slot(k: u64, size: usize) -> usize {
    (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - size.trailing_zeros())) as usize
}

/// The first eight bytes of a word, big-endian and padded with zeros: equal keys mean
/// equal words up to eight bytes.
fn key(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes
        .into_iter()
        .take(8)
        .enumerate()
        .fold(0, |k, (n, b)| k | (b as u64) << (56 - 8 * n))
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == '-' || c == '_'
}

fn is_empty_word(w: &str) -> bool {
    w.bytes().all(|b| b == b'.' || b == b'\'')
}

/// Orders a stored (normalised) word against a typed one, folding the typed word's
/// case and skipping its dots and apostrophes.
fn compare_word(stored: &str, typed: &str) -> Ordering {
    // A plain loop: this runs about ten times per name the parser looks up.
    let stored = stored.as_bytes();
    let mut i = 0;
    for &b in typed.as_bytes() {
        if b == b'.' || b == b'\'' {
            continue;
        }
        let b = b.to_ascii_lowercase();
        match stored.get(i) {
            None => return Ordering::Less,
            Some(&c) if c != b => return c.cmp(&b),
            Some(_) => i += 1,
        }
    }
    if i < stored.len() {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_name_wins_and_case_and_dots_do_not_matter() {
        let t = NameTable::new([
            ("st petersburg", 1u16),
            ("st", 2),
            ("stp", 1),
            ("north sea", 3),
            ("north", 4),
        ]);
        let words = ["St.", "Petersburg", "S"];
        assert_eq!(t.longest(|k| words.get(k).copied()), Some((1, 2)));
        let words = ["NORTH", "atlantic"];
        assert_eq!(t.longest(|k| words.get(k).copied()), Some((4, 1)));
        let words = ["north", "sea"];
        assert_eq!(t.longest(|k| words.get(k).copied()), Some((3, 2)));
        assert_eq!(t.longest(|_| None), None);
        assert_eq!(t.find("Austria Hungary"), None);
        assert_eq!(t.find("north-sea"), Some(3));
        assert_eq!(t.find("st"), Some(2));
    }

    #[test]
    fn long_words_that_begin_alike_are_told_apart() {
        let t = NameTable::new([
            ("northumberland", 1u16),
            ("northumbria", 2),
            ("northumb", 3),
            ("north", 4),
        ]);
        for (typed, want) in [("Northumbria", 2), ("NORTHUMBERLAND", 1), ("northumb", 3), ("north", 4)] {
            assert_eq!(t.longest(|k| [typed].get(k).copied()), Some((want, 1)), "{typed}");
        }
        assert_eq!(t.longest(|k| ["northumbri"].get(k).copied()), None);
    }

    /// A variant may name a power `_` (a quoted name passes the lint): the name folds
    /// to no words, so it is kept as one word and found by itself, not by `-` or a blank.
    #[test]
    fn a_name_of_separators_alone_is_found() {
        let names = ["_", "italy_", "a,b", "%"].map(normalise_name);
        assert_eq!(names, ["_", "italy", "a,b", "%"]);
        let t = NameTable::new(names.iter().map(String::as_str).zip([1u16, 2, 3, 4]));
        assert_eq!(t.find("_"), Some(1));
        assert_eq!(t.find(" _ "), Some(1));
        assert_eq!(t.find("-"), None);
        assert_eq!(t.find(""), None);
        assert_eq!(t.find("Italy_"), Some(2));
        assert_eq!(t.find("A,B"), Some(3));
        assert_eq!(t.find("%"), Some(4));
    }
}
