//! Isu names as Python identifiers.
//!
//! Isu names are ASCII words (`[A-Za-z_][A-Za-z0-9_]*`), so most are Python
//! identifiers already. The few that are not usable as they are (a Python
//! keyword, a builtin the generated code calls, a name the linter refuses,
//! or anything that could meet the generated code's own names) get one `_`
//! appended. The mapping is injective: the generated code's own names all
//! start with `_` and never end with one, and a name that already ends in `_`
//! is renamed too, so `len` -> `len_` cannot meet an Isu `len_` (-> `len__`).
//! Names with `__` inside are renamed as well: pack functions are defined as
//! `ns__NAME` (`math__GCD`), and no Isu name may meet one.
//!
//! The structs of `TYPES` are classes of the module (`_struct_point`), named
//! like the generated code's own names (`_` first, never last), and their
//! fields are attributes, which meet no other name but Python's keywords.

/// Python's keywords and soft keywords.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "case", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
    "import", "in", "is", "lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return",
    "try", "type", "while", "with", "yield",
];

/// Python's builtins (3.8 to 3.13), which the generated code and the runtime
/// may call: a local of one of these names would shadow it.
const BUILTINS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "BaseExceptionGroup",
    "BlockingIOError",
    "BrokenPipeError",
    "BufferError",
    "BytesWarning",
    "ChildProcessError",
    "ConnectionAbortedError",
    "ConnectionError",
    "ConnectionRefusedError",
    "ConnectionResetError",
    "DeprecationWarning",
    "EOFError",
    "Ellipsis",
    "EncodingWarning",
    "EnvironmentError",
    "Exception",
    "ExceptionGroup",
    "FileExistsError",
    "FileNotFoundError",
    "FloatingPointError",
    "FutureWarning",
    "GeneratorExit",
    "IOError",
    "ImportError",
    "ImportWarning",
    "IndentationError",
    "IndexError",
    "InterruptedError",
    "IsADirectoryError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "NotADirectoryError",
    "NotImplemented",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PendingDeprecationWarning",
    "PermissionError",
    "ProcessLookupError",
    "PythonFinalizationError",
    "RecursionError",
    "ReferenceError",
    "ResourceWarning",
    "RuntimeError",
    "RuntimeWarning",
    "StopAsyncIteration",
    "StopIteration",
    "SyntaxError",
    "SyntaxWarning",
    "SystemError",
    "SystemExit",
    "TabError",
    "TimeoutError",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "UnicodeTranslateError",
    "UnicodeWarning",
    "UserWarning",
    "ValueError",
    "Warning",
    "ZeroDivisionError",
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "vars",
    "zip",
];

/// Names the linter (ruff's E741, E742, E743) refuses as too easily misread.
const AMBIGUOUS: &[&str] = &["I", "O", "l"];

/// The module-level names of the generated module besides its `_` names: the
/// function may not take one of them.
const MODULE_NAMES: &[&str] = &["IsuError", "MAX_SIZE", "MAX_STEPS", "annotations", "run"];

/// The Python name of an Isu variable.
pub fn local(name: &str) -> String {
    if needs_rename(name) {
        format!("{name}_")
    } else {
        name.to_owned()
    }
}

/// The Python name of a pack function: `math.GCD` is `math__GCD`, the name
/// its lowering defines (spec/plugin-abi.md).
pub fn pack_function(name: &str) -> String {
    name.replace('.', "__")
}

/// The Python name of the Isu function.
pub fn function(name: &str) -> String {
    if needs_rename(name) || MODULE_NAMES.contains(&name) {
        format!("{name}_")
    } else {
        name.to_owned()
    }
}

/// The Python class of the Isu struct `name`: `_struct_point`. A name that
/// ends in `_` loses those `k` underscores and says how many there were
/// (`pt__` is `_struct2_pt`, `_` is `_struct1`), so the class name never
/// ends in `_` (where a renamed Isu variable could meet it) and no two
/// structs share one.
pub fn structure(name: &str) -> String {
    let stem = name.trim_end_matches('_');
    let k = name.len() - stem.len();
    if k == 0 {
        format!("_struct_{name}")
    } else if stem.is_empty() {
        format!("_struct{k}")
    } else {
        format!("_struct{k}_{stem}")
    }
}

/// The Python attribute of the struct field `name`: the name itself, or a
/// keyword with one `_` appended (`from_`), or `f__NAME` for a name with
/// `_` first or last or `__` inside (which Python would mangle or the
/// class's own `_copy` could meet). The three forms never meet: only the
/// last holds `__`, and only the second ends in `_` without it.
pub fn field(name: &str) -> String {
    if KEYWORDS.contains(&name) {
        format!("{name}_")
    } else if name.starts_with('_') || name.ends_with('_') || name.contains("__") {
        format!("f__{name}")
    } else {
        name.to_owned()
    }
}

fn needs_rename(name: &str) -> bool {
    name.is_empty()
        || name.starts_with('_')
        || name.ends_with('_')
        // Pack functions are defined as `ns__NAME`.
        || name.contains("__")
        || KEYWORDS.contains(&name)
        || BUILTINS.contains(&name)
        || AMBIGUOUS.contains(&name)
}

/// Whether `name` is an ASCII word, as every Isu name is (the parser makes
/// no other); the backend refuses IIR with any other name.
pub fn is_word(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_stay() {
        for n in ["xs", "total", "i", "wordCount", "x1", "S"] {
            assert_eq!(local(n), n);
        }
    }

    #[test]
    fn reserved_names_get_an_underscore() {
        assert_eq!(local("len"), "len_");
        assert_eq!(local("if"), "if_");
        assert_eq!(local("match"), "match_");
        assert_eq!(local("l"), "l_");
        assert_eq!(local("_t"), "_t_");
        assert_eq!(local("len_"), "len__");
        assert_eq!(local("math__GCD"), "math__GCD_");
        assert_eq!(function("run"), "run_");
        assert_eq!(local("run"), "run");
    }

    #[test]
    fn renaming_is_injective_on_a_crowd_of_names() {
        let mut seen = std::collections::BTreeMap::new();
        let base = ["len", "x", "_x", "l", "if", "run", "t"];
        let mut names = Vec::new();
        for b in base {
            for suffix in ["", "_", "__"] {
                names.push(format!("{b}{suffix}"));
            }
        }
        for n in &names {
            let py = local(n);
            assert!(
                !py.starts_with('_') || py.ends_with('_'),
                "{py} could meet a generated name"
            );
            if let Some(prev) = seen.insert(py.clone(), n.clone()) {
                panic!("{prev} and {n} both became {py}");
            }
        }
    }

    #[test]
    fn struct_classes_and_fields_never_meet() {
        assert_eq!(structure("point"), "_struct_point");
        assert_eq!(structure("pt_"), "_struct1_pt");
        assert_eq!(structure("_x__"), "_struct2__x");
        assert_eq!(structure("__"), "_struct2");
        assert_eq!(field("x"), "x");
        assert_eq!(field("from"), "from_");
        assert_eq!(field("len"), "len");
        assert_eq!(field("__x"), "f____x");
        let mut classes = std::collections::BTreeMap::new();
        let mut fields = std::collections::BTreeMap::new();
        for b in ["pt", "_pt", "pt_1", "from", "f", "f__pt", "_", "x_x", "1"] {
            for suffix in ["", "_", "__"] {
                let n = format!("{b}{suffix}");
                let c = structure(&n);
                assert!(c.starts_with('_') && !c.ends_with('_'), "{c}");
                assert!(!c.starts_with("_copy") && !c.starts_with("_m"), "{c}");
                if let Some(prev) = classes.insert(c.clone(), n.clone()) {
                    panic!("{prev} and {n} are both the class {c}");
                }
                let f = field(&n);
                assert!(
                    !f.starts_with('_') && !KEYWORDS.contains(&f.as_str()),
                    "{f}"
                );
                if let Some(prev) = fields.insert(f.clone(), n.clone()) {
                    panic!("{prev} and {n} are both the attribute {f}");
                }
            }
        }
    }

    #[test]
    fn words_are_ascii_identifiers() {
        assert!(is_word("x_1"));
        assert!(is_word("_"));
        for bad in ["", "1x", "math.GCD", "é", "a-b"] {
            assert!(!is_word(bad), "{bad}");
        }
    }
}
