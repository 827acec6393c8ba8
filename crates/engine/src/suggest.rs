//! "Did you mean …?" for names players and map authors mistype.

/// Edit distance between two short names, ignoring case.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `word` (ties go to the shorter, then the first in order),
/// if it is close enough to be what was meant: at most a third of the letters of the
/// shorter of the two wrong (at least one may be), so that an unrelated name is never
/// proposed, nor one that merely shares a long word ("Holy Roman Empire" is not
/// "Ottoman Empire").
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    candidates
        .into_iter()
        .map(|c| (distance(word, c), c))
        .filter(|&(d, c)| d <= (len.min(c.chars().count()) / 3).max(1))
        .min_by(|(d1, c1), (d2, c2)| d1.cmp(d2).then(c1.len().cmp(&c2.len())).then(c1.cmp(c2)))
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested() {
        assert_eq!(nearest("nrth", ["nth", "nwy", "nao"]), Some("nth"));
        assert_eq!(nearest("Veinna", ["Vienna", "Venice"]), Some("Vienna"));
        assert_eq!(nearest("xyzzy", Vec::<&str>::new()), None);
    }

    #[test]
    fn unrelated_names_are_not_suggested() {
        // "Turkey" in Original 1958 was answered "did you mean Italy?".
        assert_eq!(nearest("Turkey", ["Italy", "France", "Germany"]), None);
        assert_eq!(nearest("xyzzy", ["nth", "nwy"]), None);
        assert_eq!(nearest("Holy Roman Empire", ["Ottoman Empire", "Austria"]), None);
    }
}
