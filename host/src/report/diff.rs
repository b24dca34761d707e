//! A line diff: the shortest edit script between the lines of two texts
//! (Myers' O(ND) algorithm, after the common head and tail are set aside),
//! grouped into hunks with a few lines of context.
//!
//! A script longer than [`MAX_EDITS`] is not searched for: the differing
//! middle is then shown as removed and added whole, so that two unrelated
//! texts of thousands of lines cost neither quadratic time nor memory.

/// One line of a diff: in both texts, only in the old one, or only in the
/// new one (0-based line indexes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    Same { old: usize, new: usize },
    Removed(usize),
    Added(usize),
}

/// The most edits (removed plus added lines) searched for.
pub const MAX_EDITS: usize = 1000;

/// The lines of `old` and `new` as a shortest edit script, in order.
pub fn lines(old: &[&str], new: &[&str]) -> Vec<Line> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut out: Vec<Line> = (0..head).map(|i| Line::Same { old: i, new: i }).collect();
    let middle = myers(a, b).unwrap_or_else(|| {
        let removed = (0..a.len()).map(Line::Removed);
        removed.chain((0..b.len()).map(Line::Added)).collect()
    });
    out.extend(middle.into_iter().map(|l| match l {
        Line::Same { old, new } => Line::Same {
            old: old + head,
            new: new + head,
        },
        Line::Removed(i) => Line::Removed(i + head),
        Line::Added(j) => Line::Added(j + head),
    }));
    let (o, n) = (old.len() - tail, new.len() - tail);
    out.extend((0..tail).map(|i| Line::Same {
        old: o + i,
        new: n + i,
    }));
    out
}

/// Myers' greedy search for the furthest-reaching paths, diagonal by
/// diagonal, keeping each round's frontier (only its `2d + 1` diagonals) to
/// walk the path back; `None` past [`MAX_EDITS`].
fn myers(a: &[&str], b: &[&str]) -> Option<Vec<Line>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    // The frontier after round d: for each diagonal k = x - y in -d..=d
    // (stored at k + d), the furthest x reached.
    let mut rounds: Vec<Vec<isize>> = Vec::new();
    let mut prev: Vec<isize> = vec![0];
    for d in 0..=(n + m).min(MAX_EDITS as isize) {
        let mut v = vec![0isize; 2 * d as usize + 1];
        let at = |frontier: &[isize], k: isize, dd: isize| frontier[(k + dd) as usize];
        for k in (-d..=d).step_by(2) {
            let mut x = if d == 0 {
                0
            } else if k == -d || (k != d && at(&prev, k - 1, d - 1) < at(&prev, k + 1, d - 1)) {
                at(&prev, k + 1, d - 1)
            } else {
                at(&prev, k - 1, d - 1) + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[(k + d) as usize] = x;
            if x >= n && y >= m {
                rounds.push(v);
                return Some(walk_back(&rounds, n, m));
            }
        }
        prev = v.clone();
        rounds.push(v);
    }
    None
}

/// The edit script of the path that reached (n, m) in the last round.
fn walk_back(rounds: &[Vec<isize>], n: isize, m: isize) -> Vec<Line> {
    let mut out = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (0..rounds.len() as isize).rev() {
        let k = x - y;
        let (px, py) = if d == 0 {
            (0, 0)
        } else {
            let prev = &rounds[d as usize - 1];
            let at = |k: isize| prev[(k + d - 1) as usize];
            let pk = if k == -d || (k != d && at(k - 1) < at(k + 1)) {
                k + 1
            } else {
                k - 1
            };
            (at(pk), at(pk) - pk)
        };
        while x > px && y > py {
            x -= 1;
            y -= 1;
            out.push(Line::Same {
                old: x as usize,
                new: y as usize,
            });
        }
        if d > 0 {
            if x == px {
                out.push(Line::Added(py as usize));
            } else {
                out.push(Line::Removed(px as usize));
            }
        }
        (x, y) = (px, py);
    }
    out.reverse();
    out
}

/// The lines of a diff worth showing: every change with up to `context`
/// unchanged lines around it; `None` stands for unchanged lines left out.
/// A script without changes shows nothing.
pub fn hunks(script: &[Line], context: usize) -> Vec<Option<Line>> {
    let mut show = vec![false; script.len()];
    for (i, l) in script.iter().enumerate() {
        if !matches!(l, Line::Same { .. }) {
            let to = (i + 1 + context).min(script.len());
            show[i.saturating_sub(context)..to].fill(true);
        }
    }
    let mut out = Vec::new();
    let mut gap = false;
    for (l, shown) in script.iter().zip(show) {
        if !shown {
            gap = true;
            continue;
        }
        if gap {
            out.push(None);
            gap = false;
        }
        out.push(Some(*l));
    }
    if gap && !out.is_empty() {
        out.push(None);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<&str> {
        s.split_terminator('\n').collect()
    }

    /// The script applied to `old` gives `new`, and it is as short as the
    /// longest common subsequence allows.
    fn check(old: &str, new: &str, edits: usize) {
        let (a, b) = (split(old), split(new));
        let script = lines(&a, &b);
        let rebuilt: Vec<&str> = script
            .iter()
            .filter_map(|l| match *l {
                Line::Same { old, new } => {
                    assert_eq!(a[old], b[new]);
                    Some(b[new])
                }
                Line::Added(j) => Some(b[j]),
                Line::Removed(_) => None,
            })
            .collect();
        assert_eq!(rebuilt, b);
        let kept: Vec<&str> = script
            .iter()
            .filter_map(|l| match *l {
                Line::Same { old, .. } | Line::Removed(old) => Some(a[old]),
                Line::Added(_) => None,
            })
            .collect();
        assert_eq!(kept, a);
        let n = script
            .iter()
            .filter(|l| !matches!(l, Line::Same { .. }))
            .count();
        assert_eq!(n, edits, "{script:?}");
    }

    #[test]
    fn shortest_scripts() {
        check("", "", 0);
        check("a\nb\n", "a\nb\n", 0);
        check("", "a\nb\n", 2);
        check("a\nb\n", "", 2);
        check("a\nb\nc\n", "a\nx\nc\n", 2);
        // The classic example of Myers' paper: ABCABBA to CBABAC in 5.
        check("A\nB\nC\nA\nB\nB\nA\n", "C\nB\nA\nB\nA\nC\n", 5);
        check("x\na\nb\nc\ny\n", "a\nb\nq\nc\n", 3);
    }

    #[test]
    fn long_scripts_are_cut_short() {
        let a: Vec<String> = (0..MAX_EDITS).map(|i| format!("a{i}")).collect();
        let b: Vec<String> = (0..MAX_EDITS).map(|i| format!("b{i}")).collect();
        let (a, b): (Vec<&str>, Vec<&str>) = (
            a.iter().map(String::as_str).collect(),
            b.iter().map(String::as_str).collect(),
        );
        let script = lines(&a, &b);
        assert_eq!(script.len(), 2 * MAX_EDITS);
        assert!(matches!(script[0], Line::Removed(0)));
        assert!(matches!(script[MAX_EDITS], Line::Added(0)));
    }

    #[test]
    fn hunks_keep_context_and_mark_what_is_left_out() {
        let a = split("1\n2\n3\n4\n5\n6\n7\n8\n9\n");
        let b = split("1\n2\n3\n4\nX\n6\n7\n8\n9\n");
        let h = hunks(&lines(&a, &b), 2);
        let shown: Vec<String> = h
            .iter()
            .map(|l| match l {
                None => "...".to_owned(),
                Some(Line::Same { old, .. }) => a[*old].to_owned(),
                Some(Line::Removed(i)) => format!("-{}", a[*i]),
                Some(Line::Added(j)) => format!("+{}", b[*j]),
            })
            .collect();
        assert_eq!(shown, ["...", "3", "4", "-5", "+X", "6", "7", "..."]);
        assert!(hunks(&lines(&a, &a), 2).is_empty());
    }
}
