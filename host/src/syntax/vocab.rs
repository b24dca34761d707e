//! The vocabulary of Isu in one place: its keywords, operators, type names and
//! standard statement forms, and the other spellings models write for them
//! (lower case, Python, JavaScript, pseudo-code).
//!
//! The lexer and the grammar take the keywords from here, the error messages
//! and their fixes take the other spellings from here, and the grammar export
//! reads the same tables, so that no keyword, operator or type name is spelled
//! anywhere else. Every other spelling maps to exactly one Isu word; a word
//! that could mean two things is not in the tables.

macro_rules! keywords {
    ($($variant:ident = $text:literal,)*) => {
        /// The reserved upper-case words of Isu.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kw {
            $($variant,)*
        }

        /// The reserved words, as written.
        pub const KEYWORDS: &[&str] = &[$($text,)*];

        impl Kw {
            /// Every keyword, in the order of [`KEYWORDS`].
            pub const ALL: &'static [Kw] = &[$(Kw::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Kw::$variant => $text,)*
                }
            }

            /// The keyword spelled `word`, if it is one.
            pub fn from_word(word: &str) -> Option<Kw> {
                match word {
                    $($text => Some(Kw::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

keywords! {
    Meta = "META",
    AutoId = "AUTO_ID",
    Func = "FUNC",
    Name = "NAME",
    Args = "ARGS",
    Returns = "RETURNS",
    Types = "TYPES",
    Io = "IO",
    Input = "INPUT",
    Output = "OUTPUT",
    State = "STATE",
    Local = "LOCAL",
    Steps = "STEPS",
    Seq = "SEQ",
    Assign = "ASSIGN",
    If = "IF",
    Loop = "LOOP",
    Return = "RETURN",
    Break = "BREAK",
    Continue = "CONTINUE",
    Cond = "COND",
    Then = "THEN",
    Else = "ELSE",
    Iter = "ITER",
    Body = "BODY",
    Target = "TARGET",
    Expr = "EXPR",
    Begin = "BEGIN",
    End = "END",
    Patch = "PATCH",
    Replace = "REPLACE",
    InsertAfter = "INSERT_AFTER",
    InsertBefore = "INSERT_BEFORE",
    InsertInto = "INSERT_INTO",
    Delete = "DELETE",
}

/// The sections of a program, in their canonical order.
pub const SECTION_ORDER: [Kw; 7] = [
    Kw::Meta,
    Kw::Func,
    Kw::Types,
    Kw::Io,
    Kw::State,
    Kw::Local,
    Kw::Steps,
];

impl Kw {
    /// A section keyword (`META`, `FUNC`, `TYPES`, `IO`, `STATE`, `LOCAL`, `STEPS`).
    pub fn is_section(self) -> bool {
        SECTION_ORDER.contains(&self)
    }

    /// A statement keyword (`SEQ`, `ASSIGN`, `IF`, `LOOP`, `RETURN`,
    /// `BREAK`, `CONTINUE`).
    pub fn is_step_kind(self) -> bool {
        matches!(
            self,
            Kw::Seq | Kw::Assign | Kw::If | Kw::Loop | Kw::Return | Kw::Break | Kw::Continue
        )
    }

    /// A field keyword, of a section (`NAME`, `INPUT`, ...) or of a step (`COND`, ...).
    pub fn is_field(self) -> bool {
        matches!(
            self,
            Kw::AutoId
                | Kw::Name
                | Kw::Args
                | Kw::Returns
                | Kw::Input
                | Kw::Output
                | Kw::Cond
                | Kw::Then
                | Kw::Else
                | Kw::Iter
                | Kw::Body
                | Kw::Target
                | Kw::Expr
        )
    }

    /// A field whose value is a block (`THEN`, `ELSE`, `BODY`).
    pub fn is_block_field(self) -> bool {
        matches!(self, Kw::Then | Kw::Else | Kw::Body)
    }

    /// A patch entry keyword (`REPLACE`, `INSERT_AFTER`, `INSERT_BEFORE`,
    /// `INSERT_INTO`, `DELETE`).
    pub fn is_patch_entry(self) -> bool {
        matches!(
            self,
            Kw::Replace | Kw::InsertAfter | Kw::InsertBefore | Kw::InsertInto | Kw::Delete
        )
    }

    /// A section whose entries a patch edits by name (`STATE`, `LOCAL`, `TYPES`).
    pub fn is_declaration_section(self) -> bool {
        matches!(self, Kw::State | Kw::Local | Kw::Types)
    }

    /// The fields a section or statement takes, in their canonical order.
    pub fn field_order(self) -> &'static [Kw] {
        match self {
            Kw::Meta => &[Kw::AutoId],
            Kw::Func => &[Kw::Name, Kw::Args, Kw::Returns],
            Kw::Io => &[Kw::Input, Kw::Output],
            Kw::Assign => &[Kw::Target, Kw::Expr],
            Kw::If => &[Kw::Cond, Kw::Then, Kw::Else],
            Kw::Loop => &[Kw::Iter, Kw::Body],
            Kw::Return => &[Kw::Expr],
            _ => &[],
        }
    }

    /// What holds this field: `IF` for `COND`, `FUNC` for `NAME` (`EXPR`
    /// belongs to both ASSIGN and RETURN: `ASSIGN and RETURN`).
    pub fn field_holder(self) -> &'static str {
        match self {
            Kw::AutoId => "META",
            Kw::Name | Kw::Args | Kw::Returns => "FUNC",
            Kw::Input | Kw::Output => "IO",
            Kw::Cond | Kw::Then | Kw::Else => "IF",
            Kw::Iter | Kw::Body => "LOOP",
            Kw::Target => "ASSIGN",
            Kw::Expr => "ASSIGN and RETURN",
            _ => "no section or step",
        }
    }
}

/// The keyword a word means where a keyword stands (first on its line before
/// a `:`, or after `S2:`): the keyword itself in another case (`loop`,
/// `Steps`), or another name for it in the place it stands (`CONDITION` in an
/// IF, `RETURN` in FUNC). `holder` is the section or step kind around it
/// (`None` at the top level). The word must not be the keyword as written.
pub fn keyword_meant(word: &str, holder: Option<Kw>) -> Option<Kw> {
    let upper: std::borrow::Cow<'_, str> = if word.bytes().any(|b| b.is_ascii_lowercase()) {
        word.to_ascii_uppercase().into()
    } else {
        word.into()
    };
    if let Some(&(_, _, kw)) = KEYWORD_SYNONYMS
        .iter()
        .find(|(w, h, _)| *w == upper && *h == holder)
    {
        return Some(kw);
    }
    Kw::from_word(&upper).filter(|kw| kw.as_str() != word)
}

/// Whether a keyword is another keyword's other name somewhere (`RETURN`
/// in FUNC is `RETURNS`).
pub fn names_another_keyword(kw: Kw) -> bool {
    KEYWORD_SYNONYMS.iter().any(|(w, _, _)| *w == kw.as_str())
}

/// Other names for keywords, by the section or statement they stand in
/// (`None`: at the top level of the file, or as a statement in a block).
const KEYWORD_SYNONYMS: &[(&str, Option<Kw>, Kw)] = &[
    ("FUNCTION", None, Kw::Func),
    ("LOCALS", None, Kw::Local),
    ("VARIABLES", None, Kw::Local),
    ("VARS", None, Kw::Local),
    ("ARGUMENTS", Some(Kw::Func), Kw::Args),
    ("PARAMS", Some(Kw::Func), Kw::Args),
    ("PARAMETERS", Some(Kw::Func), Kw::Args),
    ("RETURN", Some(Kw::Func), Kw::Returns),
    ("RETURN_TYPE", Some(Kw::Func), Kw::Returns),
    ("RETURNTYPE", Some(Kw::Func), Kw::Returns),
    ("INPUTS", Some(Kw::Io), Kw::Input),
    ("OUTPUTS", Some(Kw::Io), Kw::Output),
    ("CONDITION", Some(Kw::If), Kw::Cond),
    ("DO", Some(Kw::Loop), Kw::Body),
    ("VALUE", Some(Kw::Assign), Kw::Expr),
    ("EXPRESSION", Some(Kw::Assign), Kw::Expr),
    ("VALUE", Some(Kw::Return), Kw::Expr),
    ("EXPRESSION", Some(Kw::Return), Kw::Expr),
    ("RETURNS", Some(Kw::Steps), Kw::Return),
];

/// What to write instead of a statement Isu does not have (`PASS:`), by the
/// word as written in upper case.
pub fn statement_advice(word: &str) -> Option<&'static str> {
    let upper = word.to_ascii_uppercase();
    STATEMENT_ADVICE
        .iter()
        .find(|(w, _)| *w == upper)
        .map(|&(_, advice)| advice)
}

const STATEMENT_ADVICE: &[(&str, &str)] = &[
    ("PASS", "Isu has no PASS: an empty block is BEGIN END"),
    ("WHILE", "Isu has no WHILE statement: write LOOP: with ITER: (while COND)"),
    ("FOR", "Isu has no FOR statement: write LOOP: with ITER: (range i START END) or (each x (var xs))"),
    ("FOREACH", "Isu has no FOREACH statement: write LOOP: with ITER: (each x (var xs))"),
    ("FOR_EACH", "Isu has no FOR_EACH statement: write LOOP: with ITER: (each x (var xs))"),
    ("ELIF", "Isu has no ELIF: write ELSE: BEGIN, the next IF: inside it, then END"),
    ("ELSEIF", "Isu has no ELSEIF: write ELSE: BEGIN, the next IF: inside it, then END"),
    ("ELSE_IF", "Isu has no ELSE_IF: write ELSE: BEGIN, the next IF: inside it, then END"),
    ("PRINT", "Isu has no PRINT: a function gives its result with RETURN"),
    ("CALL", "Isu has no CALL statement: call a function inside an expression, e.g. ASSIGN with EXPR: (call PUSH (var xs) (var x))"),
    ("SET", "Isu has no SET statement: write ASSIGN: with TARGET: and EXPR:"),
    ("LET", "Isu has no LET statement: declare the variable in LOCAL and write ASSIGN: with TARGET: and EXPR:"),
    ("SWITCH", "Isu has no SWITCH: write IF: with ELSE: BEGIN IF: ... END for each further case"),
    ("MATCH", "Isu has no MATCH: write IF: with ELSE: BEGIN IF: ... END for each further case"),
    ("TRY", "Isu has no exceptions: a runtime error stops the run; test the condition with IF first"),
    ("RAISE", "Isu has no exceptions: a runtime error stops the run; test the condition with IF first"),
    ("THROW", "Isu has no exceptions: a runtime error stops the run; test the condition with IF first"),
];

// ---- Operators ---------------------------------------------------------------

/// The operators of the expression language, in the order messages list them.
pub const OPERATOR_NAMES: &[&str] = &[
    "const", "var", "add", "sub", "mul", "div", "mod", "neg", "eq", "ne", "lt", "le", "gt", "ge",
    "and", "or", "not", "index", "call", "struct", "field", "if", "list",
];

/// The operators as one line of text, for messages.
pub const OPERATORS: &str =
    "const var add sub mul div mod neg eq ne lt le gt ge and or not index call struct field if list";

/// The iterator forms of `ITER`.
pub const ITER_FORMS: &[&str] = &["range", "each", "while"];

/// The Isu operator a symbol of infix languages means, with its precedence as
/// an infix operator (higher binds tighter; 0 for the prefix-only `!`).
/// `-` is `sub` between operands and `neg` before one.
pub fn symbol_operator(sym: &str) -> Option<(&'static str, u8)> {
    Some(match sym {
        "||" | "or" => ("or", 1),
        "&&" | "and" => ("and", 2),
        "==" | "===" | "=" => ("eq", 3),
        "!=" | "!==" | "<>" => ("ne", 3),
        "<" => ("lt", 3),
        "<=" => ("le", 3),
        ">" => ("gt", 3),
        ">=" => ("ge", 3),
        "+" => ("add", 4),
        "-" => ("sub", 4),
        "*" => ("mul", 5),
        "/" | "//" | "div" => ("div", 5),
        "%" | "mod" => ("mod", 5),
        "!" | "not" => ("not", 0),
        _ => return None,
    })
}

/// The operator a word means: the operator in another case (`ADD`), or a
/// word for it from another language (`plus`, `equals`).
pub fn operator_alias(word: &str) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    if OPERATOR_NAMES.contains(&lower.as_str()) && lower != word {
        return OPERATOR_NAMES.iter().copied().find(|o| *o == lower);
    }
    Some(match lower.as_str() {
        "plus" | "sum" => "add",
        "minus" | "subtract" => "sub",
        "times" | "multiply" | "mult" => "mul",
        "divide" | "quot" => "div",
        "modulo" | "rem" | "remainder" => "mod",
        "negate" => "neg",
        "equal" | "equals" | "eql" | "is" => "eq",
        "neq" | "not_equal" | "noteq" => "ne",
        "less" | "lesser" => "lt",
        "lte" | "leq" => "le",
        "greater" => "gt",
        "gte" | "geq" => "ge",
        "get" | "at" | "nth" | "elem" => "index",
        "ref" | "load" | "get_var" | "variable" => "var",
        "lit" | "literal" | "quote" | "value" => "const",
        "apply" | "invoke" | "fn" => "call",
        "land" | "andalso" => "and",
        "lor" | "orelse" => "or",
        "ite" | "ifte" | "if_then_else" | "ternary" | "cond" | "select" => "if",
        "array" | "vec" | "vector" | "make_array" | "array_of" | "list_of" => "list",
        _ => return None,
    })
}

// ---- Literals ----------------------------------------------------------------

/// The JSON literal a name from another language means (`True` is `true`);
/// `None` for names of nothing (`None`, `null`), which Isu has no value for.
pub fn literal_meant(word: &str) -> Option<Option<&'static str>> {
    Some(match word {
        "True" | "TRUE" => Some("true"),
        "False" | "FALSE" => Some("false"),
        "None" | "NONE" | "nil" | "Nil" | "NULL" | "Null" | "undefined" | "null" => None,
        _ => return None,
    })
}

// ---- Types -------------------------------------------------------------------

/// The scalar type names.
pub const SCALAR_TYPES: &[&str] = &["int", "float", "bool", "string"];

/// The only type with parameters.
pub const MAP_TYPE: &str = "map";

/// What another type name means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeMeant {
    /// A scalar: `int`, `float`, `bool` or `string`.
    Scalar(&'static str),
    /// An array: written `T[]`.
    Array,
    /// A map: written `map<K,V>`.
    Map,
}

/// The Isu type another type name means: `integer`, `str`, `Boolean`, `list`,
/// `dict`, matched without regard to case. `None` for the Isu names themselves
/// written as Isu writes them.
pub fn type_meant(word: &str) -> Option<TypeMeant> {
    let lower = word.to_ascii_lowercase();
    let meant = match lower.as_str() {
        "int" | "integer" | "i64" | "i32" | "int64" | "int32" | "long" | "number" | "num"
        | "usize" | "isize" | "u64" | "u32" | "bigint" => TypeMeant::Scalar("int"),
        "float" | "double" | "f64" | "f32" | "float64" | "float32" | "real" | "decimal" => {
            TypeMeant::Scalar("float")
        }
        "bool" | "boolean" => TypeMeant::Scalar("bool"),
        "string" | "str" | "text" | "char" | "chr" => TypeMeant::Scalar("string"),
        "list" | "array" | "vec" | "vector" | "sequence" | "seq" | "slice" | "tuple" => {
            TypeMeant::Array
        }
        "map" | "dict" | "dictionary" | "hashmap" | "btreemap" | "mapping" | "object"
        | "record" => TypeMeant::Map,
        _ => return None,
    };
    let exact = SCALAR_TYPES.contains(&word) || word == MAP_TYPE;
    (!exact).then_some(meant)
}

// ---- Standard functions --------------------------------------------------------

/// The standard function another function name means (`len`, `length`,
/// `append`), matched without regard to case; `None` when `name` is a standard
/// function as written or means none.
pub fn function_meant(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    if let Some(f) = STANDARD_FUNCTIONS
        .iter()
        .find(|f| f.eq_ignore_ascii_case(&lower))
    {
        return (*f != name).then_some(f);
    }
    FUNCTION_SYNONYMS
        .iter()
        .find(|(w, _)| *w == lower)
        .map(|&(_, f)| f)
}

/// The names of the standard functions (a test keeps this list equal to the
/// table of `crate::stdlib`).
pub const STANDARD_FUNCTIONS: &[&str] = &[
    "ABS",
    "CEIL",
    "CHARS",
    "CONCAT",
    "CONTAINS",
    "FLOAT",
    "FLOOR",
    "INDEX_OF",
    "JOIN",
    "LEN",
    "LOWER",
    "MAP_GET",
    "MAP_GET_OR",
    "MAP_HAS",
    "MAP_KEYS",
    "MAP_SET",
    "MAX",
    "MIN",
    "PARSE_FLOAT",
    "PARSE_INT",
    "POP",
    "PUSH",
    "REPEAT",
    "REVERSE",
    "ROUND",
    "SLICE",
    "SORT",
    "SPLIT",
    "SPLIT_WHITESPACE",
    "SQRT",
    "TO_STRING",
    "TRUNC",
    "UPPER",
];

const FUNCTION_SYNONYMS: &[(&str, &str)] = &[
    ("length", "LEN"),
    ("size", "LEN"),
    ("count", "LEN"),
    ("len_of", "LEN"),
    ("append", "PUSH"),
    ("add_last", "PUSH"),
    ("str", "TO_STRING"),
    ("string", "TO_STRING"),
    ("tostring", "TO_STRING"),
    ("to_str", "TO_STRING"),
    ("itoa", "TO_STRING"),
    ("int", "PARSE_INT"),
    ("parseint", "PARSE_INT"),
    ("to_int", "PARSE_INT"),
    ("atoi", "PARSE_INT"),
    ("words", "SPLIT_WHITESPACE"),
    ("sorted", "SORT"),
    ("reversed", "REVERSE"),
    ("includes", "CONTAINS"),
    ("find", "INDEX_OF"),
    ("indexof", "INDEX_OF"),
    ("uppercase", "UPPER"),
    ("to_upper", "UPPER"),
    ("toupper", "UPPER"),
    ("touppercase", "UPPER"),
    ("keys", "MAP_KEYS"),
    ("has", "MAP_HAS"),
    ("contains_key", "MAP_HAS"),
    ("has_key", "MAP_HAS"),
    ("get", "MAP_GET"),
    ("get_or", "MAP_GET_OR"),
    ("get_or_default", "MAP_GET_OR"),
    ("set", "MAP_SET"),
    ("put", "MAP_SET"),
    ("insert", "MAP_SET"),
    ("lowercase", "LOWER"),
    ("to_lower", "LOWER"),
    ("tolower", "LOWER"),
    ("tolowercase", "LOWER"),
    ("to_float", "FLOAT"),
    ("tofloat", "FLOAT"),
    ("double", "FLOAT"),
    ("to_double", "FLOAT"),
    ("parsefloat", "PARSE_FLOAT"),
    ("parse_double", "PARSE_FLOAT"),
    ("atof", "PARSE_FLOAT"),
    ("truncate", "TRUNC"),
    ("ceiling", "CEIL"),
    ("square_root", "SQRT"),
    ("substring", "SLICE"),
    ("substr", "SLICE"),
    ("sub_list", "SLICE"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_agree_with_their_line() {
        assert_eq!(OPERATOR_NAMES.join(" "), OPERATORS);
    }

    #[test]
    fn every_synonym_names_a_real_word() {
        for (_, holder, kw) in KEYWORD_SYNONYMS {
            match holder {
                None => assert!(kw.is_section() || kw.is_step_kind(), "{kw:?}"),
                Some(h) if *h == Kw::Steps => assert!(kw.is_step_kind()),
                Some(h) => assert!(h.field_order().contains(kw), "{kw:?} in {h:?}"),
            }
        }
        for (_, f) in FUNCTION_SYNONYMS {
            assert!(STANDARD_FUNCTIONS.contains(f), "{f}");
        }
        let stdlib: Vec<&str> = crate::stdlib::STDLIB.iter().map(|f| f.name).collect();
        assert_eq!(stdlib, STANDARD_FUNCTIONS);
    }

    #[test]
    fn keywords_in_other_spellings() {
        assert_eq!(keyword_meant("loop", None), Some(Kw::Loop));
        assert_eq!(keyword_meant("Steps", None), Some(Kw::Steps));
        assert_eq!(keyword_meant("LOOP", None), None);
        assert_eq!(keyword_meant("RETURN", Some(Kw::Func)), Some(Kw::Returns));
        assert_eq!(keyword_meant("condition", Some(Kw::If)), Some(Kw::Cond));
        assert_eq!(keyword_meant("condition", Some(Kw::Loop)), None);
        assert_eq!(function_meant("len"), Some("LEN"));
        assert_eq!(function_meant("LEN"), None);
        assert_eq!(function_meant("length"), Some("LEN"));
        assert_eq!(type_meant("integer"), Some(TypeMeant::Scalar("int")));
        assert_eq!(type_meant("Int"), Some(TypeMeant::Scalar("int")));
        assert_eq!(type_meant("int"), None);
        assert_eq!(type_meant("dict"), Some(TypeMeant::Map));
        assert_eq!(symbol_operator("=="), Some(("eq", 3)));
        assert_eq!(operator_alias("ADD"), Some("add"));
        assert_eq!(operator_alias("plus"), Some("add"));
    }
}
