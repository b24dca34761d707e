//! What a standard-function pack is, in plain Rust: more functions under a
//! namespace (`math.GCD`), each with a typed signature, an implementation the
//! interpreter calls, and per target a lowering a backend compiles in.
//!
//! The abi_stable root module that carries a [`Pack`] across a dynamic-library
//! boundary wraps this trait (see [`crate::abi`]), so a pack's own tests call
//! it directly, in-process.

use crate::abi::Scalar;
use crate::backend::PluginDiagnostic;
use crate::backend_codes::BackendCode;
use crate::literal::Literal;
use crate::types::Type;
use serde::{Deserialize, Serialize};
use std::fmt;

mod carried;
mod table;
pub use carried::{is_version_requirement, version_matches, PackLowerings};
pub use table::{Args, FunctionDef, TablePack, TargetLowerings};

/// Who a pack is and what it offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackInfo {
    /// The namespace its functions are called under: `math` for `math.GCD`.
    /// Lower-case ASCII letters, digits and `_`, starting with a letter.
    pub namespace: String,
    /// The pack's own version (semver).
    pub version: String,
    /// The functions it offers.
    pub functions: Vec<PackFunction>,
}

/// One function of a pack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackFunction {
    /// The name without the namespace, in the style of the standard functions: `GCD`.
    pub name: String,
    /// Its signature as text: `(int, int) -> int` (see [`Signature`]).
    pub signature: String,
    /// What it does, one sentence.
    pub doc: String,
    /// The runtime codes it fails with, each with when (`out_of_domain:
    /// a negative exponent`), for its documentation. Plugin API 2.1; absent
    /// means none are documented.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// A function's lowering for one target: source text in the target's
/// language, defining the function under the name a backend asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lowering {
    /// The function's full name, `math.GCD`.
    pub function: String,
    /// The target this lowering is for, as named on `isu build --target`.
    pub target: String,
    /// The definition, e.g. a Python `def` for the `python` target. By
    /// convention it defines the function under the full name with `.`
    /// replaced by `__` (`math__GCD`).
    pub source: String,
}

/// A standard-function pack.
pub trait Pack {
    /// Who the pack is: namespace, version, functions with their signatures.
    /// Called once, when the host loads the plugin.
    fn info(&self) -> PackInfo;

    /// Calls `function` (its name without the namespace) with arguments of its
    /// declared types. `Err` is a runtime error (with one of the host's runtime
    /// codes, e.g. `int_overflow`; its step is left empty, the host names the
    /// calling step).
    fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic>;

    /// [`Pack::call`] within the run's size limit `max_size`: a function
    /// whose result can be larger than its arguments (a padding, a
    /// replacement) answers `size_limit` instead of building a result larger
    /// than `max_size`. The host calls this one (plugin API 2.1); the default
    /// calls [`Pack::call`], right for functions whose results never outgrow
    /// their arguments, which the host has already checked.
    fn call_within(
        &self,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        let _ = max_size;
        self.call(function, args)
    }

    /// [`Pack::call_within`] of the function at `index` in the `functions`
    /// of [`Pack::info`], whose name is `function`. The host finds each
    /// function's position once, when it loads the pack, and calls by it
    /// (plugin API 2.2). The default calls by name; a pack that finds a
    /// function faster by its position ([`TablePack`]) answers this one.
    fn call_index(
        &self,
        index: usize,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        let _ = index;
        self.call_within(function, args, max_size)
    }

    /// [`Pack::call_index`] of a function whose parameters and result are
    /// all scalars ([`Signature::is_scalar`]), its arguments and result as
    /// [`Scalar`]s: the host calls this one for such a function (plugin API
    /// 2.3), so a scalar call builds no literal. The default converts to
    /// literals and calls [`Pack::call_index`]; [`TablePack`] answers it
    /// without. A result that is no scalar is `plugin_bad_output`.
    fn call_scalars(
        &self,
        index: usize,
        function: &str,
        args: &[Scalar],
        max_size: u64,
    ) -> Result<Scalar, PluginDiagnostic> {
        scalars_by_literals(self, index, function, args, max_size)
    }

    /// The definition of `function` for `target`, or `None` when the pack has
    /// no lowering for that target (then a program calling the function is
    /// unsupported on it, unless the target's backend carries a lowering of
    /// its own, [`PackLowerings`]).
    fn lower(&self, function: &str, target: &str) -> Option<String>;
}

/// [`Pack::call_scalars`] by [`Pack::call_index`]: the scalars as literals,
/// and the result as a scalar.
pub(crate) fn scalars_by_literals<P: Pack + ?Sized>(
    pack: &P,
    index: usize,
    function: &str,
    args: &[Scalar],
    max_size: u64,
) -> Result<Scalar, PluginDiagnostic> {
    let literals: Vec<Literal> = args.iter().map(|a| a.to_literal()).collect();
    let result = pack.call_index(index, function, &literals, max_size)?;
    scalar_result(function, &result)
}

/// The result of a scalar call of `function` as a scalar, or
/// `plugin_bad_output` when it is none.
pub(crate) fn scalar_result(function: &str, result: &Literal) -> Result<Scalar, PluginDiagnostic> {
    Scalar::of(result).ok_or_else(|| {
        PluginDiagnostic::backend(
            BackendCode::PluginBadOutput,
            format!("{function} returned {result}, which is not a scalar"),
        )
        .with_hint("this is a bug in the pack; report it to its authors")
    })
}

/// The typed signature of a pack function, written `(int, string[]) -> bool`.
/// Types are concrete (packs have no type variables).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature {
    /// The parameter types, in order.
    pub params: Vec<Type>,
    /// The return type.
    pub ret: Type,
}

impl Signature {
    /// Whether every parameter and the result are scalars (`int`, `float`,
    /// `bool`): a call of such a function crosses by [`Pack::call_scalars`].
    pub fn is_scalar(&self) -> bool {
        let scalar = |t: &Type| matches!(t, Type::Int | Type::Float | Type::Bool);
        self.params.iter().all(scalar) && scalar(&self.ret)
    }

    /// Parses the text form. Spaces are allowed between tokens.
    pub fn parse(text: &str) -> Result<Signature, String> {
        let mut p = TypeParser { text, pos: 0 };
        p.expect("(")?;
        let mut params = Vec::new();
        p.skip_spaces();
        if !p.eat(")") {
            loop {
                params.push(p.ty()?);
                if p.eat(")") {
                    break;
                }
                p.expect(",")?;
            }
        }
        p.expect("->")?;
        let ret = p.ty()?;
        p.skip_spaces();
        if p.pos != text.len() {
            return Err(format!(
                "unexpected `{}` after the return type",
                &text[p.pos..]
            ));
        }
        Ok(Signature { params, ret })
    }
}

/// Parses the canonical text of one type (`int`, `string[]`, `map<string,int>`).
pub fn parse_type(text: &str) -> Result<Type, String> {
    let mut p = TypeParser { text, pos: 0 };
    let t = p.ty()?;
    p.skip_spaces();
    if p.pos != text.len() {
        return Err(format!("unexpected `{}` after the type", &text[p.pos..]));
    }
    Ok(t)
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, t) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{t}")?;
        }
        write!(f, ") -> {}", self.ret)
    }
}

struct TypeParser<'a> {
    text: &'a str,
    pos: usize,
}

impl TypeParser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start_matches(' ').len();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_spaces();
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &str) -> Result<(), String> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(format!(
                "expected `{token}` at column {} of `{}`",
                self.pos + 1,
                self.text
            ))
        }
    }

    fn ty(&mut self) -> Result<Type, String> {
        self.skip_spaces();
        let word_len = self
            .rest()
            .bytes()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        let word = &self.rest()[..word_len];
        let mut t = match word {
            "int" => Type::Int,
            "bool" => Type::Bool,
            "string" => Type::String,
            "map" => {
                self.pos += word_len;
                self.expect("<")?;
                let k = self.ty()?;
                self.expect(",")?;
                let v = self.ty()?;
                self.expect(">")?;
                if !k.is_map_key() {
                    return Err(format!("a map key must be int or string, not {k}"));
                }
                Type::map(k, v)
            }
            _ => {
                return Err(format!(
                    "expected a type (int, bool, string, T[], map<K,V>) at column {} of `{}`",
                    self.pos + 1,
                    self.text
                ))
            }
        };
        if !matches!(t, Type::Map(..)) {
            self.pos += word_len;
        }
        while self.eat("[") {
            self.expect("]")?;
            t = Type::array(t);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_round_trip_through_text() {
        for text in [
            "(int, int) -> int",
            "() -> bool",
            "(string[], map<string,int[]>) -> map<int,bool>[]",
        ] {
            let sig = Signature::parse(text);
            assert_eq!(sig.map(|s| s.to_string()), Ok(text.to_owned()));
        }
        let spaced = Signature::parse(" ( int ,string [ ] )->  int ");
        assert_eq!(
            spaced,
            Ok(Signature {
                params: vec![Type::Int, Type::array(Type::String)],
                ret: Type::Int
            })
        );
    }

    #[test]
    fn a_signature_of_ints_and_bools_is_scalar() {
        let scalar = |text: &str| Signature::parse(text).map(|s| s.is_scalar());
        assert_eq!(scalar("(int, bool) -> int"), Ok(true));
        assert_eq!(scalar("() -> bool"), Ok(true));
        assert_eq!(scalar("(int, string) -> int"), Ok(false));
        assert_eq!(scalar("(int) -> int[]"), Ok(false));
    }

    #[test]
    fn bad_signatures_say_where() {
        let cases = [
            ("int -> int", "expected `(`"),
            ("(int) int", "expected `->`"),
            ("(float) -> int", "expected a type"),
            ("(int) -> int x", "unexpected `x`"),
            ("(map<bool,int>) -> int", "map key must be int or string"),
        ];
        for (text, want) in cases {
            match Signature::parse(text) {
                Ok(s) => panic!("{text} parsed as {s}"),
                Err(e) => assert!(e.contains(want), "{text}: {e}"),
            }
        }
        assert_eq!(
            parse_type("map<string,int>"),
            Ok(Type::map(Type::String, Type::Int))
        );
        assert!(parse_type("int]").is_err());
    }
}
