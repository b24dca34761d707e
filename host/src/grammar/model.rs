//! The grammar data model: rules of expressions over characters, with the
//! analyses every printer relies on (which rules a rule uses, which can
//! match the empty text, which are recursive).

use std::collections::{BTreeMap, BTreeSet};

/// A set of characters, as sorted, disjoint, inclusive ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    ranges: Vec<(char, char)>,
}

impl Class {
    /// The characters of the given inclusive ranges.
    pub fn of(ranges: &[(char, char)]) -> Class {
        let mut sorted: Vec<(char, char)> = ranges.to_vec();
        sorted.sort();
        let mut out: Vec<(char, char)> = Vec::new();
        for (lo, hi) in sorted {
            match out.last_mut() {
                Some(last) if next(last.1).is_some_and(|n| lo <= n) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Class { ranges: out }
    }

    /// The characters of a text, each one.
    pub fn chars(text: &str) -> Class {
        let ranges: Vec<(char, char)> = text.chars().map(|c| (c, c)).collect();
        Class::of(&ranges)
    }

    /// Every Unicode scalar value.
    pub fn any() -> Class {
        Class::of(&[('\0', char::MAX)])
    }

    pub fn ranges(&self) -> &[(char, char)] {
        &self.ranges
    }

    pub fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The characters of `self` that are not in `other`.
    pub fn minus(&self, other: &Class) -> Class {
        let mut out = Vec::new();
        for &(lo, hi) in &self.ranges {
            let mut from = Some(lo);
            for &(olo, ohi) in &other.ranges {
                let Some(start) = from else { break };
                if ohi < start || olo > hi {
                    continue;
                }
                if olo > start {
                    if let Some(end) = prev(olo) {
                        out.push((start, end));
                    }
                }
                from = next(ohi).filter(|&n| n <= hi);
            }
            if let Some(start) = from {
                out.push((start, hi));
            }
        }
        Class::of(&out)
    }

    /// Every character but these, as ranges: what `[^...]` means.
    pub fn complement(&self) -> Class {
        Class::any().minus(self)
    }

    /// Whether this class is best written negated (`[^...]`): it reaches the
    /// end of Unicode, so its complement is the short list.
    pub fn prefers_negation(&self) -> bool {
        self.contains(char::MAX)
    }

    /// The one character of a one-character class.
    pub fn single(&self) -> Option<char> {
        match self.ranges.as_slice() {
            [(lo, hi)] if lo == hi => Some(*lo),
            _ => None,
        }
    }
}

fn next(c: char) -> Option<char> {
    match c {
        '\u{d7ff}' => Some('\u{e000}'),
        c => char::from_u32(c as u32 + 1),
    }
}

fn prev(c: char) -> Option<char> {
    match c {
        '\u{e000}' => Some('\u{d7ff}'),
        '\0' => None,
        c => char::from_u32(c as u32 - 1),
    }
}

/// What a rule matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// Exactly this text (never empty).
    Lit(String),
    /// One character of the set.
    Class(Class),
    /// What the rule of this name matches.
    Ref(String),
    /// Each in turn.
    Seq(Vec<Expr>),
    /// Any one of them.
    Alt(Vec<Expr>),
    /// `min` or more, at most `max` (unbounded when `None`).
    Repeat {
        item: Box<Expr>,
        min: u32,
        max: Option<u32>,
    },
    /// A set of texts described in words, for EBNF (`? ... ?`); it stands
    /// only as the `minus` of an [`Expr::Except`], which no other format prints.
    Described(String),
    /// What `base` matches but `minus` does not. Only EBNF can say this
    /// directly; Lark and GBNF print `expanded`, the same language written
    /// without the exception, and regex-lite, a superset, prints `base`.
    Except {
        base: Box<Expr>,
        minus: Box<Expr>,
        expanded: Box<Expr>,
    },
}

/// `text`, literally.
pub fn lit(text: impl Into<String>) -> Expr {
    Expr::Lit(text.into())
}

/// The rule `name`.
pub fn rule(name: &str) -> Expr {
    Expr::Ref(name.to_owned())
}

/// One character of the given ranges.
pub fn class(ranges: &[(char, char)]) -> Expr {
    Expr::Class(Class::of(ranges))
}

/// The items in order (adjacent literals joined).
pub fn seq(items: impl IntoIterator<Item = Expr>) -> Expr {
    let mut out: Vec<Expr> = Vec::new();
    for item in items {
        match (out.last_mut(), item) {
            (Some(Expr::Lit(a)), Expr::Lit(b)) => a.push_str(&b),
            (_, Expr::Seq(inner)) => out.extend(inner),
            (_, item) => out.push(item),
        }
    }
    if out.len() == 1 {
        out.remove(0)
    } else {
        Expr::Seq(out)
    }
}

/// Any one of the alternatives.
pub fn alt(items: impl IntoIterator<Item = Expr>) -> Expr {
    let mut out: Vec<Expr> = Vec::new();
    for item in items {
        match item {
            Expr::Alt(inner) => out.extend(inner),
            item => out.push(item),
        }
    }
    if out.len() == 1 {
        out.remove(0)
    } else {
        Expr::Alt(out)
    }
}

/// Zero or one.
pub fn opt(item: Expr) -> Expr {
    repeat(item, 0, Some(1))
}

/// Zero or more.
pub fn star(item: Expr) -> Expr {
    repeat(item, 0, None)
}

/// One or more.
pub fn plus(item: Expr) -> Expr {
    repeat(item, 1, None)
}

pub fn repeat(item: Expr, min: u32, max: Option<u32>) -> Expr {
    Expr::Repeat {
        item: Box::new(item),
        min,
        max,
    }
}

/// Items separated by `sep`, zero or more of them.
pub fn list(item: Expr, sep: &str) -> Expr {
    opt(seq([item.clone(), star(seq([lit(sep), item]))]))
}

impl Expr {
    /// Calls `f` on every rule name this expression refers to (printed form:
    /// the expansion of an exception, not its base and minus).
    pub fn each_ref(&self, f: &mut impl FnMut(&str)) {
        match self {
            Expr::Ref(name) => f(name),
            Expr::Lit(_) | Expr::Class(_) | Expr::Described(_) => {}
            Expr::Seq(items) | Expr::Alt(items) => items.iter().for_each(|e| e.each_ref(f)),
            Expr::Repeat { item, .. } => item.each_ref(f),
            Expr::Except { expanded, .. } => expanded.each_ref(f),
        }
    }

    /// Whether it can match the empty text, given which rules can.
    fn nullable(&self, nullable_rules: &BTreeSet<String>) -> bool {
        match self {
            Expr::Lit(s) => s.is_empty(),
            Expr::Class(_) | Expr::Described(_) => false,
            Expr::Ref(name) => nullable_rules.contains(name),
            Expr::Seq(items) => items.iter().all(|e| e.nullable(nullable_rules)),
            Expr::Alt(items) => items.iter().any(|e| e.nullable(nullable_rules)),
            Expr::Repeat { item, min, .. } => *min == 0 || item.nullable(nullable_rules),
            Expr::Except { expanded, .. } => expanded.nullable(nullable_rules),
        }
    }

    /// The rules it can start with (before consuming any character).
    fn leading_refs(&self, nullable_rules: &BTreeSet<String>, out: &mut BTreeSet<String>) {
        match self {
            Expr::Lit(_) | Expr::Class(_) | Expr::Described(_) => {}
            Expr::Ref(name) => {
                out.insert(name.clone());
            }
            Expr::Seq(items) => {
                for e in items {
                    e.leading_refs(nullable_rules, out);
                    if !e.nullable(nullable_rules) {
                        break;
                    }
                }
            }
            Expr::Alt(items) => items
                .iter()
                .for_each(|e| e.leading_refs(nullable_rules, out)),
            Expr::Repeat { item, .. } => item.leading_refs(nullable_rules, out),
            Expr::Except { expanded, .. } => expanded.leading_refs(nullable_rules, out),
        }
    }
}

/// One named rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub name: String,
    /// A lexical rule: regular, built only of characters and other lexical
    /// rules. Lark prints it as a terminal.
    pub token: bool,
    /// What the rule is for, one sentence a line (printed as a comment).
    pub doc: String,
    pub body: Expr,
}

/// A grammar: its rules, the first one the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grammar {
    pub rules: Vec<Rule>,
}

impl Grammar {
    pub fn start(&self) -> &str {
        self.rules.first().map_or("", |r| r.name.as_str())
    }

    pub fn get(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }

    /// The names each rule refers to.
    pub fn edges(&self) -> BTreeMap<&str, BTreeSet<String>> {
        self.rules
            .iter()
            .map(|r| {
                let mut refs = BTreeSet::new();
                r.body.each_ref(&mut |n| {
                    refs.insert(n.to_owned());
                });
                (r.name.as_str(), refs)
            })
            .collect()
    }

    /// The rules that can match the empty text.
    pub fn nullable_rules(&self) -> BTreeSet<String> {
        let mut set = BTreeSet::new();
        loop {
            let before = set.len();
            for r in &self.rules {
                if r.body.nullable(&set) {
                    set.insert(r.name.clone());
                }
            }
            if set.len() == before {
                return set;
            }
        }
    }

    /// Every name referred to but not defined.
    pub fn undefined(&self) -> BTreeSet<String> {
        let defined: BTreeSet<&str> = self.rules.iter().map(|r| r.name.as_str()).collect();
        self.edges()
            .into_values()
            .flatten()
            .filter(|n| !defined.contains(n.as_str()))
            .collect()
    }

    /// Rules that can reach themselves without consuming a character (which
    /// llama.cpp's GBNF engine refuses).
    pub fn left_recursive(&self) -> BTreeSet<String> {
        let nullable = self.nullable_rules();
        let leading: BTreeMap<&str, BTreeSet<String>> = self
            .rules
            .iter()
            .map(|r| {
                let mut out = BTreeSet::new();
                r.body.leading_refs(&nullable, &mut out);
                (r.name.as_str(), out)
            })
            .collect();
        self.rules
            .iter()
            .filter(|r| reaches(&leading, &r.name, &r.name))
            .map(|r| r.name.clone())
            .collect()
    }

    /// The strongly connected components of the reference graph that are
    /// recursive (a rule that reaches itself), each as its set of rule names.
    pub fn recursive_groups(&self) -> Vec<BTreeSet<String>> {
        let edges = self.edges();
        let mut groups: Vec<BTreeSet<String>> = Vec::new();
        for r in &self.rules {
            if groups.iter().any(|g| g.contains(&r.name)) {
                continue;
            }
            if !reaches(&edges, &r.name, &r.name) {
                continue;
            }
            let group: BTreeSet<String> = self
                .rules
                .iter()
                .filter(|o| reaches(&edges, &r.name, &o.name) && reaches(&edges, &o.name, &r.name))
                .map(|o| o.name.clone())
                .collect();
            groups.push(group);
        }
        groups
    }
}

/// Whether `to` is reachable from `from` in one or more steps.
fn reaches(edges: &BTreeMap<&str, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut stack: Vec<&str> = edges
        .get(from)
        .map(|s| s.iter().map(String::as_str).collect())
        .unwrap_or_default();
    while let Some(n) = stack.pop() {
        if n == to {
            return true;
        }
        if seen.insert(n) {
            if let Some(next) = edges.get(n) {
                stack.extend(next.iter().map(String::as_str));
            }
        }
    }
    false
}
