//! A pack written as a table: one [`FunctionDef`] per function, holding
//! what [`Pack::info`] tells of it, the code [`Pack::call_within`] runs and
//! its lowerings per target. [`TablePack`] answers the calls of the trait
//! from the table (a call by position without a search), so a pack crate holds its functions and nothing
//! else (the `math` and `text` packs are written this way).

use super::{scalar_result, Pack, PackFunction, PackInfo};
use crate::abi::Scalar;
use crate::backend::PluginDiagnostic;
use crate::backend_codes::BackendCode;
use crate::literal::Literal;

/// One function of a [`TablePack`].
#[derive(Debug, Clone, Copy)]
pub struct FunctionDef {
    /// The name without the namespace: `GCD`.
    pub name: &'static str,
    /// `(int, int) -> int`.
    pub signature: &'static str,
    /// What it does, one sentence or two.
    pub doc: &'static str,
    /// The runtime codes it fails with, each with when:
    /// `"int_overflow: the result is 2^63"`.
    pub errors: &'static [&'static str],
    /// The implementation: arguments of the declared types, and the run's
    /// size limit, which a result that can outgrow the arguments is checked
    /// against before it is built.
    pub call: fn(Args<'_>, u64) -> Result<Literal, PluginDiagnostic>,
}

impl FunctionDef {
    fn run(&self, args: &[Literal], max_size: u64) -> Result<Literal, PluginDiagnostic> {
        (self.call)(Args::new(self.name, args), max_size)
    }

    /// The same code on scalars: the function reads them through [`Args`]
    /// as it reads literals, and its scalar result is taken as it is.
    fn run_scalars(&self, args: &[Scalar], max_size: u64) -> Result<Scalar, PluginDiagnostic> {
        let args = Args {
            function: self.name,
            args: Values::Scalars(args),
        };
        scalar_result(self.name, &(self.call)(args, max_size)?)
    }
}

/// The lowerings of a pack for one target: `(function, source)` for each
/// function it defines there.
#[derive(Debug, Clone, Copy)]
pub struct TargetLowerings {
    /// As named on `isu build --target`: `python`.
    pub target: &'static str,
    /// `(NAME, source)`: the definition of each function it has one for.
    pub functions: &'static [(&'static str, &'static str)],
}

/// A pack whose functions are a table.
#[derive(Debug, Clone, Copy)]
pub struct TablePack {
    /// The namespace: `math`.
    pub namespace: &'static str,
    /// The pack's version.
    pub version: &'static str,
    /// The functions, in the order `info` lists them.
    pub functions: &'static [FunctionDef],
    /// Per target, the functions' definitions there.
    pub lowerings: &'static [TargetLowerings],
}

impl TablePack {
    fn find(&self, function: &str) -> Result<&FunctionDef, PluginDiagnostic> {
        self.functions
            .iter()
            .find(|f| f.name == function)
            .ok_or_else(|| {
                PluginDiagnostic::backend(
                    BackendCode::UnknownFunction,
                    format!("the {} pack has no function {function}", self.namespace),
                )
            })
    }
}

impl Pack for TablePack {
    fn info(&self) -> PackInfo {
        PackInfo {
            namespace: self.namespace.into(),
            version: self.version.into(),
            functions: self
                .functions
                .iter()
                .map(|f| PackFunction {
                    name: f.name.into(),
                    signature: f.signature.into(),
                    doc: f.doc.into(),
                    errors: f.errors.iter().map(|e| (*e).to_owned()).collect(),
                })
                .collect(),
        }
    }

    /// Without a size limit: the largest one there is.
    fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        self.call_within(function, args, u64::MAX)
    }

    fn call_within(
        &self,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        self.find(function)?.run(args, max_size)
    }

    /// By position in the table, which is the order `info` lists; by name
    /// when the function there has another name (a caller that counted
    /// wrong still calls the function it names).
    fn call_index(
        &self,
        index: usize,
        function: &str,
        args: &[Literal],
        max_size: u64,
    ) -> Result<Literal, PluginDiagnostic> {
        match self.functions.get(index) {
            Some(f) if f.name == function => f.run(args, max_size),
            _ => self.call_within(function, args, max_size),
        }
    }

    /// By position, as [`TablePack::call_index`], on the scalars themselves.
    fn call_scalars(
        &self,
        index: usize,
        function: &str,
        args: &[Scalar],
        max_size: u64,
    ) -> Result<Scalar, PluginDiagnostic> {
        match self.functions.get(index) {
            Some(f) if f.name == function => f.run_scalars(args, max_size),
            _ => self.find(function)?.run_scalars(args, max_size),
        }
    }

    fn lower(&self, function: &str, target: &str) -> Option<String> {
        self.lowerings
            .iter()
            .filter(|l| l.target == target)
            .flat_map(|l| l.functions)
            .find(|(f, _)| *f == function)
            .map(|(_, source)| (*source).to_owned())
    }
}

/// The arguments of one call, read by position and type. The host passes
/// only arguments of the declared types, so a read of the wrong type is the
/// host's bug, reported as `pack_failed`.
#[derive(Debug, Clone, Copy)]
pub struct Args<'a> {
    function: &'a str,
    args: Values<'a>,
}

/// The arguments as they came: literals, or the scalars of a scalar call
/// ([`Pack::call_scalars`]).
#[derive(Debug, Clone, Copy)]
enum Values<'a> {
    Literals(&'a [Literal]),
    Scalars(&'a [Scalar]),
}

impl<'a> Args<'a> {
    /// Arguments of `function` (for the messages of wrong reads).
    pub fn new(function: &'a str, args: &'a [Literal]) -> Args<'a> {
        Args {
            function,
            args: Values::Literals(args),
        }
    }

    /// Argument `i` when the arguments are literals.
    fn literal(&self, i: usize) -> Option<&'a Literal> {
        match self.args {
            Values::Literals(args) => args.get(i),
            Values::Scalars(_) => None,
        }
    }

    fn wrong(&self, i: usize, want: &str) -> PluginDiagnostic {
        let got = match self.args {
            Values::Literals(args) => args.get(i).map(Literal::to_string),
            Values::Scalars(args) => args.get(i).map(|a| a.to_literal().to_string()),
        };
        let got = got.unwrap_or_else(|| "nothing".to_owned());
        PluginDiagnostic::runtime(
            "pack_failed",
            None,
            format!(
                "{}: argument {} should be {want}, not {got}",
                self.function,
                i + 1
            ),
        )
    }

    /// Argument `i`, an int.
    #[inline]
    pub fn int(&self, i: usize) -> Result<i64, PluginDiagnostic> {
        let n = match self.args {
            Values::Scalars(args) => match args.get(i) {
                Some(Scalar::Int(n)) => Some(*n),
                _ => None,
            },
            Values::Literals(args) => match args.get(i) {
                Some(Literal::Int(n)) => Some(*n),
                _ => None,
            },
        };
        n.ok_or_else(|| self.wrong(i, "an int"))
    }

    /// Argument `i`, a string.
    pub fn str(&self, i: usize) -> Result<&'a str, PluginDiagnostic> {
        match self.literal(i) {
            Some(Literal::Str(s)) => Ok(s),
            _ => Err(self.wrong(i, "a string")),
        }
    }

    /// Argument `i`, an array of ints.
    pub fn ints(&self, i: usize) -> Result<Vec<i64>, PluginDiagnostic> {
        match self.literal(i) {
            Some(Literal::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Literal::Int(n) => Ok(*n),
                    _ => Err(self.wrong(i, "an array of ints")),
                })
                .collect(),
            _ => Err(self.wrong(i, "an array of ints")),
        }
    }

    /// A runtime error of this function, with the host's `code`.
    pub fn fail(&self, code: crate::RuntimeCode, message: impl Into<String>) -> PluginDiagnostic {
        PluginDiagnostic::runtime(
            code.as_str(),
            None,
            format!("{}: {}", self.function, message.into()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuntimeCode;

    fn add(args: Args<'_>, _: u64) -> Result<Literal, PluginDiagnostic> {
        let (a, b) = (args.int(0)?, args.int(1)?);
        a.checked_add(b)
            .map(Literal::Int)
            .ok_or_else(|| args.fail(RuntimeCode::IntOverflow, "the sum is outside the int range"))
    }

    fn fill(args: Args<'_>, max_size: u64) -> Result<Literal, PluginDiagnostic> {
        let n = args.int(0)?;
        if n as u64 > max_size {
            return Err(args.fail(RuntimeCode::SizeLimit, "too long"));
        }
        Ok(Literal::Str("x".repeat(n as usize)))
    }

    const PACK: TablePack = TablePack {
        namespace: "demo",
        version: "1.0.0",
        functions: &[
            FunctionDef {
                name: "ADD",
                signature: "(int, int) -> int",
                doc: "The sum.",
                errors: &["int_overflow: the sum is outside the int range"],
                call: add,
            },
            FunctionDef {
                name: "FILL",
                signature: "(int) -> string",
                doc: "n x's.",
                errors: &[],
                call: fill,
            },
        ],
        lowerings: &[TargetLowerings {
            target: "python",
            functions: &[("ADD", "def demo__ADD(a, b):\n    return a + b\n")],
        }],
    };

    #[test]
    fn the_table_answers_info_call_and_lower() {
        let info = PACK.info();
        assert_eq!(info.namespace, "demo");
        assert_eq!(info.functions[0].errors.len(), 1);
        assert_eq!(
            PACK.call("ADD", &[Literal::Int(2), Literal::Int(3)]),
            Ok(Literal::Int(5))
        );
        let overflow = PACK.call("ADD", &[Literal::Int(i64::MAX), Literal::Int(1)]);
        assert_eq!(overflow.map_err(|d| d.code), Err("int_overflow".into()));
        let wrong = PACK.call("ADD", &[Literal::Bool(true), Literal::Int(1)]);
        assert_eq!(wrong.map_err(|d| d.code), Err("pack_failed".into()));
        assert_eq!(
            PACK.call("NOPE", &[]).map_err(|d| d.code),
            Err("unknown_function".into())
        );
        assert!(PACK.lower("ADD", "python").is_some());
        assert_eq!(PACK.lower("ADD", "wasm"), None);
        assert_eq!(PACK.lower("NOPE", "python"), None);
    }

    #[test]
    fn call_index_calls_by_position_and_by_name_when_the_position_is_wrong() {
        let args = [Literal::Int(2), Literal::Int(3)];
        assert_eq!(PACK.call_index(0, "ADD", &args, 9), Ok(Literal::Int(5)));
        let fill = [Literal::Int(2)];
        assert_eq!(
            PACK.call_index(0, "FILL", &fill, 9),
            Ok(Literal::Str("xx".into()))
        );
        assert_eq!(PACK.call_index(7, "ADD", &args, 9), Ok(Literal::Int(5)));
        let limited = PACK.call_index(1, "FILL", &fill, 1);
        assert_eq!(limited.map_err(|d| d.code), Err("size_limit".into()));
        let unknown = PACK.call_index(0, "NOPE", &args, 9);
        assert_eq!(unknown.map_err(|d| d.code), Err("unknown_function".into()));
    }

    #[test]
    fn call_scalars_runs_the_same_code_on_scalars() {
        let args = [Scalar::Int(2), Scalar::Int(3)];
        assert_eq!(PACK.call_scalars(0, "ADD", &args, 9), Ok(Scalar::Int(5)));
        assert_eq!(PACK.call_scalars(7, "ADD", &args, 9), Ok(Scalar::Int(5)));
        let big = [Scalar::Int(i64::MAX), Scalar::Int(1)];
        let overflow = PACK.call_scalars(0, "ADD", &big, 9).map_err(|d| d.code);
        assert_eq!(overflow, Err("int_overflow".into()));
        let wrong = PACK.call_scalars(0, "ADD", &[Scalar::Bool(true), Scalar::Int(1)], 9);
        let wrong = wrong.map_err(|d| (d.code, d.message));
        assert_eq!(
            wrong,
            Err((
                "pack_failed".into(),
                "ADD: argument 1 should be an int, not true".into()
            ))
        );
        // A function whose result is no scalar, called as if it were one.
        let fill = PACK.call_scalars(1, "FILL", &[Scalar::Int(2)], 9);
        assert_eq!(fill.map_err(|d| d.code), Err("plugin_bad_output".into()));
        let unknown = PACK.call_scalars(0, "NOPE", &args, 9);
        assert_eq!(unknown.map_err(|d| d.code), Err("unknown_function".into()));
    }

    /// The trait's default, for a pack that does not answer
    /// `call_scalars` itself: by literals through `call_index`.
    #[test]
    fn the_default_call_scalars_goes_through_literals() {
        struct ByName;
        impl Pack for ByName {
            fn info(&self) -> PackInfo {
                PACK.info()
            }
            fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
                PACK.call(function, args)
            }
            fn lower(&self, _: &str, _: &str) -> Option<String> {
                None
            }
        }
        let args = [Scalar::Int(2), Scalar::Int(3)];
        assert_eq!(ByName.call_scalars(0, "ADD", &args, 9), Ok(Scalar::Int(5)));
        let fill = ByName.call_scalars(1, "FILL", &[Scalar::Int(2)], 9);
        assert_eq!(fill.map_err(|d| d.code), Err("plugin_bad_output".into()));
    }

    #[test]
    fn call_within_passes_the_size_limit() {
        let args = [Literal::Int(5)];
        assert_eq!(
            PACK.call_within("FILL", &args, 4).map_err(|d| d.code),
            Err("size_limit".into())
        );
        assert_eq!(
            PACK.call_within("FILL", &args, 5),
            Ok(Literal::Str("xxxxx".into()))
        );
    }
}
