//! The names a player may type for spaces and powers, split into words once when the
//! variant loads, so that reading an order looks names up word by word in place: no
//! string is built per name, and a name of several words is found in one search
//! instead of one lookup per possible length.

use std::cmp::Ordering;

/// Names of one kind (spaces or powers), each as its normalised words (lowercase, no
/// dots or apostrophes: `variant::normalise_name`), sorted so that the names starting
/// with one word lie together.
#[derive(Clone, Debug, Default)]
pub struct NameTable<T> {
    entries: Vec<(Vec<Box<str>>, T)>,
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
        NameTable { entries }
    }

    /// The longest name formed by the words `word(0)`, `word(1)`, … (`None` ends them),
    /// and how many words it takes. Words are compared ignoring ASCII case, dots and
    /// apostrophes, as `normalise_name` folds them.
    pub fn longest<'w>(&self, word: impl Fn(usize) -> Option<&'w str>) -> Option<(T, usize)> {
        let first = word(0)?;
        let start = self
            .entries
            .partition_point(|(words, _)| compare_word(&words[0], first) == Ordering::Less);
        let mut best: Option<(T, usize)> = None;
        for (words, t) in &self.entries[start..] {
            if compare_word(&words[0], first) != Ordering::Equal {
                break;
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
        match self.longest(word) {
            Some((t, n)) if n == count => Some(t),
            _ => None,
        }
    }
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
}
