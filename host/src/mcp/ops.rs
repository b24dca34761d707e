//! The interfaces of the objects and their operations, declared once: the
//! text view, the structured view, and the checking of an argument record
//! before a call all follow this table.

use crate::diag::{Code, Diagnostic};
use serde_json::{json, Map, Value};

/// The type of one parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Bool,
    /// A non-negative integer.
    Count,
    String,
    /// A JSON object (a program's arguments).
    Object,
    /// A list of strings.
    Strings,
}

impl Ty {
    pub fn text(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::Count => "int",
            Ty::String => "string",
            Ty::Object => "object",
            Ty::Strings => "string[]",
        }
    }

    fn admits(self, v: &Value) -> bool {
        match self {
            Ty::Bool => v.is_boolean(),
            Ty::Count => v.is_u64(),
            Ty::String => v.is_string(),
            Ty::Object => v.is_object(),
            Ty::Strings => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        }
    }
}

/// One named parameter.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub ty: Ty,
    pub required: bool,
    pub doc: &'static str,
}

/// One operation of an interface.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    pub name: &'static str,
    pub doc: &'static str,
    pub params: &'static [Param],
    /// The result's members besides `ok` and `diagnostics`, in the text view's notation.
    pub result: &'static str,
}

/// A named set of operations an object offers.
#[derive(Debug, Clone, Copy)]
pub struct Interface {
    pub name: &'static str,
    pub doc: &'static str,
    pub operations: &'static [Operation],
}

const fn req(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param {
        name,
        ty,
        required: true,
        doc,
    }
}

const fn opt(name: &'static str, ty: Ty, doc: &'static str) -> Param {
    Param {
        name,
        ty,
        required: false,
        doc,
    }
}

const TARGET: Param = opt(
    "target",
    Ty::String,
    "run through the backend of this target instead of the interpreter",
);
const MAX_STEPS: Param = opt(
    "max_steps",
    Ty::Count,
    "units of fuel (loop rounds and work, spec/semantics.md 7) before step_limit (at most the default, 10000000)",
);
const MAX_SIZE: Param = opt(
    "max_size",
    Ty::Count,
    "elements or characters before size_limit (at most the default, 10000000)",
);
const MAX_MEMORY: Param = opt(
    "max_memory",
    Ty::Count,
    "the live size of all variables before memory_limit (at most the default, 16777216)",
);
const OUT: Param = opt(
    "out",
    Ty::String,
    "where to write, relative to the root: a file for one artifact, else a folder; default: nothing is written",
);
const EMIT: Param = opt(
    "emit",
    Ty::Strings,
    "the artifact kinds to emit; default: the backend's first",
);

/// The operations of a program.
pub const PROGRAM: Interface = Interface {
    name: "isu.program",
    doc: "an Isu program file",
    operations: &[
        Operation {
            name: "check",
            doc: "parse, canonicalize and validate; every error",
            params: &[],
            result: "",
        },
        Operation {
            name: "fmt",
            doc: "the canonical text; with write, rewrite the file with it",
            params: &[opt("write", Ty::Bool, "rewrite the file (default false)")],
            result: "text: string, canonical: bool, written: bool",
        },
        Operation {
            name: "run",
            doc: "run on arguments; the result value or the runtime error naming its step",
            params: &[
                req("args", Ty::Object, "the arguments, by ARGS name"),
                TARGET,
                MAX_STEPS,
                MAX_SIZE,
                MAX_MEMORY,
            ],
            result: "value?: any",
        },
        Operation {
            name: "test",
            doc: "run the IO examples; each one that does not hold is a TestFail",
            params: &[TARGET, MAX_STEPS, MAX_SIZE, MAX_MEMORY],
            result: "examples: int, passed: int, failed: int",
        },
        Operation {
            name: "fix",
            doc: "apply every machine-applicable fix, to a fixed point; with write, rewrite the file",
            params: &[opt("write", Ty::Bool, "rewrite the file (default false)")],
            result: "text: string, changed: bool, rounds: int, applied: object[], written: bool",
        },
        Operation {
            name: "patch",
            doc: "apply a patch (REPLACE, INSERT_AFTER, INSERT_BEFORE, INSERT_INTO, DELETE on steps and STATE/LOCAL/TYPES entries), re-validate; with write, rewrite the file",
            params: &[
                req("patch", Ty::String, "the patch text, starting with PATCH:"),
                opt("write", Ty::Bool, "rewrite the file (default false)"),
            ],
            result: "text?: string, renumbered?: object, written: bool",
        },
        Operation {
            name: "build",
            doc: "compile through the backend of a target",
            params: &[
                req("target", Ty::String, "the target (see the backends)"),
                OUT,
                EMIT,
            ],
            result: "artifacts?: {kind: string, file_name: string, bytes: int, path?: string}[]",
        },
    ],
};

/// The operations of a step.
pub const STEP: Interface = Interface {
    name: "isu.step",
    doc: "one step of a program, by its step ID",
    operations: &[
        Operation {
            name: "show",
            doc: "the step's canonical text",
            params: &[],
            result: "text: string, kind: string",
        },
        Operation {
            name: "replace",
            doc: "replace the step with new text (a REPLACE patch), re-validate; with write, rewrite the file",
            params: &[
                req("text", Ty::String, "the new step's text"),
                opt("write", Ty::Bool, "rewrite the file (default false)"),
            ],
            result: "text?: string, written: bool",
        },
    ],
};

/// The operations of a backend.
pub const BACKEND: Interface = Interface {
    name: "isu.backend",
    doc: "a backend plugin",
    operations: &[Operation {
        name: "build",
        doc: "compile a program through this backend",
        params: &[
            req(
                "program",
                Ty::String,
                "the program's object path (programs/...)",
            ),
            opt(
                "target",
                Ty::String,
                "one of the backend's targets (default: its first)",
            ),
            OUT,
            EMIT,
        ],
        result: "artifacts?: {kind: string, file_name: string, bytes: int, path?: string}[]",
    }],
};

/// The operations of a standard or pack function.
pub const FUNCTION: Interface = Interface {
    name: "isu.function",
    doc: "a function programs can call",
    operations: &[Operation {
        name: "describe",
        doc: "the function's signatures, what it does and the runtime errors it can raise",
        params: &[],
        result: "name: string, signatures: string[], doc: string, errors: string[]",
    }],
};

impl Interface {
    pub fn operation(&self, name: &str) -> Option<&'static Operation> {
        self.operations.iter().find(|o| o.name == name)
    }
}

impl Operation {
    /// The signature in the text view: `run(args: object, target?: string) -> {...}`.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let q = if p.required { "" } else { "?" };
                format!("{}{q}: {}", p.name, p.ty.text())
            })
            .collect();
        let extra = if self.result.is_empty() {
            String::new()
        } else {
            format!(", {}", self.result)
        };
        format!(
            "{}({}) -> {{ok: bool, diagnostics: Diagnostic[]{extra}}}",
            self.name,
            params.join(", ")
        )
    }

    /// The operation as structured data.
    pub fn to_json(&self) -> Value {
        json!({
            "name": self.name,
            "doc": self.doc,
            "signature": self.signature(),
            "params": self.params.iter().map(|p| json!({
                "name": p.name, "type": p.ty.text(), "required": p.required, "doc": p.doc,
            })).collect::<Vec<_>>(),
        })
    }

    /// Checks an argument record against the parameters: every required one
    /// present, none unknown, each of its declared type.
    pub fn check_arguments(&self, args: &Map<String, Value>) -> Result<(), Diagnostic> {
        let bad = |message: String| {
            Diagnostic::error(Code::InvalidArguments, message)
                .with_hint(format!("the signature is {}", self.signature()))
        };
        for key in args.keys() {
            if !self.params.iter().any(|p| p.name == key) {
                return Err(bad(format!("{} takes no argument `{key}`", self.name)));
            }
        }
        for p in self.params {
            match args.get(p.name) {
                None if p.required => {
                    return Err(bad(format!(
                        "{} needs the argument `{}`",
                        self.name, p.name
                    )))
                }
                Some(v) if !p.ty.admits(v) => {
                    return Err(bad(format!(
                        "the argument `{}` of {} must be {}, not {v:.80}",
                        p.name,
                        self.name,
                        p.ty.text()
                    )))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// The text view of an interface: its name and doc, then one signature per
/// operation, each followed by its doc.
pub fn interface_text(i: &Interface) -> String {
    let mut out = format!("interface {}  -- {}\n", i.name, i.doc);
    for o in i.operations {
        out.push_str(&format!("  {}\n    -- {}\n", o.signature(), o.doc));
    }
    out
}

/// The named types the signatures use.
pub const TYPES_TEXT: &str = "type Diagnostic = {kind: string, code: string, severity: string, step?: string, span?: {line: int, column: int, start: int, end: int}, message: string, expected?: any, actual?: any, hint?: string}\n";
