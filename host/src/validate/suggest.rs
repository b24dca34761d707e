//! "Did you mean": the closest known name to a misspelt one.

/// The candidate closest to `name`, when one is close enough to be a likely
/// misspelling: equal but for case, or within a small edit distance (one edit
/// for names of up to five characters, two beyond). Ties go to the earlier
/// candidate, so the answer is deterministic.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let wanted = normalize(name);
    let mut best: Option<(usize, &'a str)> = None;
    for cand in candidates {
        if cand == name {
            continue;
        }
        let c = normalize(cand);
        let longest = wanted.chars().count().max(c.chars().count());
        let limit = match longest {
            0..=2 => 0,
            3..=5 => 1,
            _ => 2,
        };
        let d = distance(&wanted, &c);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// Lower case without underscores: `MAP_GET`, `mapget` and `MapGet` are alike.
fn normalize(name: &str) -> String {
    name.chars()
        .filter(|&c| c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The edit distance (insertions, deletions, substitutions and swaps of two
/// neighbours) between two strings, in characters.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the optimal-string-alignment table.
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("total", "totla"), 1, "a swap is one edit");
        assert_eq!(distance("same", "same"), 0);
    }

    #[test]
    fn closest_names() {
        let names = ["total", "count", "xs"];
        assert_eq!(closest("totl", names), Some("total"));
        assert_eq!(closest("Total", names), Some("total"));
        assert_eq!(
            closest("cnt", names),
            None,
            "two edits on a short name is too far"
        );
        assert_eq!(closest("x", names), None);
        assert_eq!(closest("mapget", ["MAP_GET", "MAP_SET"]), Some("MAP_GET"));
        assert_eq!(
            closest("total", names),
            None,
            "a name is not its own suggestion"
        );
    }
}
