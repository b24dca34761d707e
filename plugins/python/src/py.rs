//! Python expressions as text, with their precedence, so that parentheses
//! appear exactly where Python needs them (and where a reader would want
//! them: comparisons are never chained).

/// Python's operator precedence, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prec {
    /// `x if c else y`.
    Cond,
    Or,
    And,
    Not,
    /// `<`, `==`, `in`, `not in`.
    Cmp,
    /// `+`, `-`.
    Sum,
    /// `*`, `//`, `%`.
    Term,
    /// `-x`.
    Unary,
    /// Calls, subscripts, attributes.
    Primary,
    /// Names, literals, anything in brackets.
    Atom,
}

/// A Python expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Py {
    pub text: String,
    pub prec: Prec,
}

impl Py {
    pub fn new(text: impl Into<String>, prec: Prec) -> Py {
        Py {
            text: text.into(),
            prec,
        }
    }

    pub fn atom(text: impl Into<String>) -> Py {
        Py::new(text, Prec::Atom)
    }

    /// The text, in parentheses unless its precedence is at least `min`.
    pub fn at(&self, min: Prec) -> String {
        if self.prec >= min {
            self.text.clone()
        } else {
            format!("({})", self.text)
        }
    }

    /// The text, in parentheses unless it binds tighter than `than`.
    pub fn above(&self, than: Prec) -> String {
        if self.prec > than {
            self.text.clone()
        } else {
            format!("({})", self.text)
        }
    }

    /// A call `f(args...)`; arguments need no parentheses of their own.
    pub fn call(f: &str, args: &[Py]) -> Py {
        let args: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
        Py::new(format!("{f}({})", args.join(", ")), Prec::Primary)
    }

    /// A left-associative binary operation `l op r` at precedence `prec`.
    pub fn binary(l: &Py, op: &str, r: &Py, prec: Prec) -> Py {
        Py::new(format!("{} {op} {}", l.at(prec), r.above(prec)), prec)
    }

    /// A comparison `l op r`; neither side is a comparison itself.
    pub fn compare(l: &Py, op: &str, r: &Py) -> Py {
        Py::new(
            format!("{} {op} {}", l.above(Prec::Cmp), r.above(Prec::Cmp)),
            Prec::Cmp,
        )
    }

    /// `text` wrapped in parentheses, as an atom.
    pub fn parens(text: impl AsRef<str>) -> Py {
        Py::atom(format!("({})", text.as_ref()))
    }

    /// Whether this is a plain name or literal that evaluating twice costs
    /// nothing and changes nothing.
    pub fn is_simple(&self) -> bool {
        self.prec == Prec::Atom
            && !self.text.is_empty()
            && self
                .text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parentheses_only_where_needed() {
        let a = Py::atom("a");
        let sum = Py::binary(&a, "+", &Py::atom("b"), Prec::Sum);
        assert_eq!(sum.text, "a + b");
        let prod = Py::binary(&sum, "*", &Py::atom("c"), Prec::Term);
        assert_eq!(prod.text, "(a + b) * c");
        let right = Py::binary(&a, "-", &sum, Prec::Sum);
        assert_eq!(right.text, "a - (a + b)");
        let cmp = Py::compare(&Py::compare(&a, "<", &sum), "==", &Py::atom("True"));
        assert_eq!(cmp.text, "(a < a + b) == True");
        let neg = Py::new(
            format!("-{}", Py::new("-x", Prec::Unary).above(Prec::Unary)),
            Prec::Unary,
        );
        assert_eq!(neg.text, "-(-x)");
    }

    #[test]
    fn simple_means_a_name_or_number() {
        assert!(Py::atom("xs").is_simple());
        assert!(Py::atom("42").is_simple());
        assert!(!Py::new("-1", Prec::Unary).is_simple());
        assert!(!Py::atom("xs[0]").is_simple());
        assert!(!Py::atom("\"a\"").is_simple());
    }
}
