//! Two regular languages that grammar formats without exceptions or
//! arithmetic need spelled out: the words that are not reserved, and the
//! decimals up to a bound.

use super::model::{alt, lit, opt, repeat, seq, star, Class, Expr};
use std::collections::BTreeMap;

/// Words reserved in a word language: finite `words`, and `shapes`, each a
/// prefix followed by one or more characters of a class (`S` then digits and
/// underscores: what a step ID looks like).
#[derive(Debug, Clone, Default)]
pub struct Reserved {
    pub words: Vec<String>,
    pub shapes: Vec<(String, Class)>,
}

/// The words of `first` then any number of `rest` that `reserved` does not
/// hold, as an expression without exceptions.
///
/// Built on the trie of the reserved words: at each node the word may end
/// (unless a reserved word ends there), go on along the trie, or leave it
/// with any other character and then go on freely. A shape's class must not
/// share a character with the trie's branches at its prefix, and no reserved
/// word may run through a shape (checked: `None` otherwise).
pub fn unreserved(first: &Class, rest: &Class, reserved: &Reserved) -> Option<Expr> {
    let mut root = Node::default();
    for w in &reserved.words {
        root.insert(w).ends = true;
    }
    for (prefix, class) in &reserved.shapes {
        let node = root.insert(prefix);
        if node.shape.is_some() {
            return None;
        }
        node.shape = Some(class.clone());
    }
    root.expr(first, rest, true)
}

#[derive(Debug, Default)]
struct Node {
    children: BTreeMap<char, Node>,
    ends: bool,
    shape: Option<Class>,
}

impl Node {
    fn insert(&mut self, word: &str) -> &mut Node {
        let mut node = self;
        for c in word.chars() {
            node = node.children.entry(c).or_default();
        }
        node
    }

    /// The words that continue from this node (`at_root`: nothing read yet).
    fn expr(&self, first: &Class, rest: &Class, at_root: bool) -> Option<Expr> {
        let here = if at_root { first } else { rest };
        let mut alts = Vec::new();
        if !at_root && !self.ends {
            alts.push(lit(""));
        }
        let mut taken = Class::chars(&self.children.keys().collect::<String>());
        for (&c, child) in &self.children {
            if here.contains(c) {
                alts.push(seq([lit(c.to_string()), child.expr(first, rest, false)?]));
            }
        }
        if let Some(shape) = &self.shape {
            if shape
                .ranges()
                .iter()
                .any(|&(lo, hi)| self.children.keys().any(|&c| lo <= c && c <= hi))
            {
                return None;
            }
            // One or more of the shape's characters is reserved; a word
            // escapes it with any other character.
            let escape = rest.minus(shape);
            alts.push(seq([
                repeat(Expr::Class(shape.clone()), 1, None),
                Expr::Class(escape),
                star(Expr::Class(rest.clone())),
            ]));
            taken = Class::of(&[taken.ranges(), shape.ranges()].concat());
        }
        let free = here.minus(&taken);
        if !free.is_empty() {
            alts.push(seq([Expr::Class(free), star(Expr::Class(rest.clone()))]));
        }
        Some(simplify_empty(alt(alts)))
    }
}

/// `("" | a | b)` as `(a | b)?`: the empty literal is not printable in every format.
fn simplify_empty(e: Expr) -> Expr {
    match e {
        Expr::Alt(items) if items.contains(&lit("")) => {
            let rest: Vec<Expr> = items.into_iter().filter(|i| *i != lit("")).collect();
            opt(alt(rest))
        }
        Expr::Lit(s) if s.is_empty() => opt(alt([])),
        e => e,
    }
}

/// The decimals from 0 to `bound` (itself a decimal), without leading zeros.
pub fn decimal_up_to(bound: &str) -> Expr {
    let digits: Vec<u32> = bound.chars().filter_map(|c| c.to_digit(10)).collect();
    let n = digits.len() as u32;
    let digit = || Expr::Class(Class::of(&[('0', '9')]));
    let mut alts = vec![lit("0")];
    if n > 1 {
        // Fewer digits than the bound: anything.
        alts.push(seq([
            Expr::Class(Class::of(&[('1', '9')])),
            repeat(digit(), 0, Some(n - 2)),
        ]));
    }
    // As many digits as the bound: the bound's first i digits, then a smaller
    // one, then any; or the bound itself.
    for (i, &d) in digits.iter().enumerate() {
        let lowest = if i == 0 { 1 } else { 0 };
        if d <= lowest || (n == 1 && i == 0) {
            continue;
        }
        let prefix: String = digits[..i].iter().map(|d| d.to_string()).collect();
        let below = Class::of(&[(digit_char(lowest), digit_char(d - 1))]);
        let tail = n - 1 - i as u32;
        let mut parts = vec![lit(prefix), Expr::Class(below)];
        if tail > 0 {
            parts.push(repeat(digit(), tail, Some(tail)));
        }
        alts.push(seq(parts.into_iter().filter(|e| *e != lit(""))));
    }
    if n == 1 {
        if let Some(&d) = digits.first() {
            if d >= 1 {
                alts.push(Expr::Class(Class::of(&[('1', digit_char(d))])));
            }
        }
    } else {
        alts.push(lit(bound));
    }
    alt(alts)
}

fn digit_char(d: u32) -> char {
    char::from_digit(d, 10).unwrap_or('0')
}
