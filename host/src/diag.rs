//! Diagnostics: the one error type of the host, its JSON shape (design.md
//! section 3) and its rendering for people.
//!
//! Every error any phase reports is a [`Diagnostic`] with a stable [`Code`].
//! The list of codes below is the source of `spec/errors.md`; a test keeps the
//! two in step.

use crate::source::Source;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use isu_lang::RuntimeCode;
use isu_plugin_api::{Span, StepId};
use serde::Serialize;
use std::fmt;

/// The four kinds of error of a program (design.md section 3); the two kinds
/// of failure of a command around it (a file it could not read or write, a
/// command line it could not use); and `InputError` for a request Isu refuses
/// or cannot carry out that is not a program's error (a memory record, query
/// or store, a path outside the project root, an MCP request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Kind {
    ParseError,
    StaticError,
    RuntimeError,
    TestFail,
    IoError,
    UsageError,
    InputError,
}

impl Kind {
    /// Every kind, in the order `spec/errors.md` lists them.
    pub const ALL: &'static [Kind] = &[
        Kind::ParseError,
        Kind::StaticError,
        Kind::RuntimeError,
        Kind::TestFail,
        Kind::IoError,
        Kind::UsageError,
        Kind::InputError,
    ];

    /// The process exit code for a failure of this kind (documented in the README
    /// and in `spec/errors.md`).
    pub fn exit_code(self) -> i32 {
        match self {
            Kind::IoError => 1,
            Kind::UsageError => 2,
            Kind::ParseError => 3,
            Kind::StaticError => 4,
            Kind::RuntimeError => 5,
            Kind::TestFail => 6,
            Kind::InputError => 10,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ParseError => "ParseError",
            Kind::StaticError => "StaticError",
            Kind::RuntimeError => "RuntimeError",
            Kind::TestFail => "TestFail",
            Kind::IoError => "IoError",
            Kind::UsageError => "UsageError",
            Kind::InputError => "InputError",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! codes {
    (
        $($variant:ident = $text:literal, $kind:ident, $summary:literal;)*
        @runtime;
        $($after:ident = $atext:literal, $akind:ident, $asummary:literal;)*
    ) => {
        /// A stable error code. The text (`"undeclared_variable"`) never changes
        /// once published; new codes are only ever added. The runtime codes are
        /// the language's own ([`RuntimeCode`]), which every executor shares.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($variant,)*
            Runtime(RuntimeCode),
            $($after,)*
        }

        impl Code {
            const FRONT: &'static [Code] = &[$(Code::$variant,)*];
            const BACK: &'static [Code] = &[$(Code::$after,)*];

            /// Every code, in the order of `spec/errors.md`: parse errors,
            /// static errors, runtime errors, test failures.
            pub const ALL: [Code; Code::FRONT.len() + RuntimeCode::ALL.len() + Code::BACK.len()] = {
                let mut all = [Code::Runtime(RuntimeCode::InternalError);
                    Code::FRONT.len() + RuntimeCode::ALL.len() + Code::BACK.len()];
                let mut i = 0;
                while i < Code::FRONT.len() {
                    all[i] = Code::FRONT[i];
                    i += 1;
                }
                let mut j = 0;
                while j < RuntimeCode::ALL.len() {
                    all[i + j] = Code::Runtime(RuntimeCode::ALL[j]);
                    j += 1;
                }
                let mut k = 0;
                while k < Code::BACK.len() {
                    all[i + j + k] = Code::BACK[k];
                    k += 1;
                }
                all
            };

            /// The stable text of the code.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $text,)*
                    Code::Runtime(r) => r.as_str(),
                    $(Code::$after => $atext,)*
                }
            }

            /// The kind every diagnostic with this code has.
            pub fn kind(self) -> Kind {
                match self {
                    $(Code::$variant => Kind::$kind,)*
                    Code::Runtime(_) => Kind::RuntimeError,
                    $(Code::$after => Kind::$akind,)*
                }
            }

            /// One line saying what the code means.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                    Code::Runtime(r) => r.summary(),
                    $(Code::$after => $asummary,)*
                }
            }

            /// The code of this text, if it is one; of the two kinds of
            /// `invalid_number`, the ParseError.
            pub fn from_text(text: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.as_str() == text)
            }

            /// The code of this text and kind, if it is one.
            pub fn of_kind(kind: Kind, text: &str) -> Option<Code> {
                Code::ALL
                    .iter()
                    .copied()
                    .find(|c| c.kind() == kind && c.as_str() == text)
            }
        }
    };
}

codes! {
    // Text that is not Isu.
    TabCharacter = "tab_character", ParseError, "a tab character; Isu text indents with spaces only";
    InvalidCharacter = "invalid_character", ParseError, "a character that starts no Isu token";
    UnterminatedString = "unterminated_string", ParseError, "a string literal without its closing quote on the same line";
    InvalidEscape = "invalid_escape", ParseError, "a backslash escape JSON does not define";
    IntOutOfRange = "int_out_of_range", ParseError, "an integer literal outside the 64-bit signed range";
    InvalidNumber = "invalid_number", ParseError, "a number with a leading zero, or a float beyond the float range";
    UnexpectedToken = "unexpected_token", ParseError, "a token the grammar does not allow here";
    UnexpectedEnd = "unexpected_end", ParseError, "the text ends where the grammar needs more";
    UnclosedBlock = "unclosed_block", ParseError, "a BEGIN, `{`, `(` or `[` that is never closed";
    MismatchedClose = "mismatched_close", ParseError, "a closing END, `}`, `)` or `]` that does not match the innermost open one";
    UnmatchedClose = "unmatched_close", ParseError, "a closing END, `}`, `)` or `]` with nothing open";
    InvalidStepId = "invalid_step_id", ParseError, "a step ID not of the form S1, S2_1, S2_1_3 (positive numbers, no leading zeros)";
    MissingField = "missing_field", ParseError, "a statement lacks a field it requires (IF needs COND, THEN and ELSE)";
    UnknownOperator = "unknown_operator", ParseError, "an S-expression whose head is not an Isu operator";
    WrongOperandCount = "wrong_operand_count", ParseError, "an operator with the wrong number of operands";
    InvalidExpression = "invalid_expression", ParseError, "text where an expression such as (var x) or (const 1) must stand";
    InvalidLiteral = "invalid_literal", ParseError, "a JSON literal Isu cannot hold (null, a repeated key)";
    InvalidType = "invalid_type", ParseError, "text that is not a type (int, float, bool, string, T[], map<K,V>)";
    InvalidPlace = "invalid_place", ParseError, "a TARGET that is neither a name nor (index PLACE EXPR)";
    InvalidIter = "invalid_iter", ParseError, "an ITER that is not (range i A B [STEP]), (each x EXPR) or (while COND)";
    SectionOrder = "section_order", ParseError, "a section repeated (error), or out of the order META, FUNC, TYPES, IO, STATE, LOCAL, STEPS (accepted: warning)";
    MissingSection = "missing_section", ParseError, "FUNC or STEPS is missing";
    InvalidPatch = "invalid_patch", ParseError, "a patch file not of the form PATCH: then REPLACE, INSERT_AFTER, INSERT_BEFORE, INSERT_INTO or DELETE entries, each with what its operation takes";
    NestingTooDeep = "nesting_too_deep", ParseError, "more blocks, parentheses and brackets open at once than the parser allows (100)";
    InvalidUtf8 = "invalid_utf8", ParseError, "a file that is not UTF-8 text (the first bad byte is reported with its line and column)";
    LoneCarriageReturn = "lone_carriage_return", ParseError, "a carriage return (CR) not followed by a line feed: Isu lines end with LF or CRLF";
    MisspeltKeyword = "misspelt_keyword", ParseError, "a keyword in another case or under another name (`loop:`, `CONDITION:`, `RETURN:` in FUNC); read as the keyword, fixed by `isu fix`";
    MissingColon = "missing_colon", ParseError, "a section or field keyword written without its `:` (`COND (gt ...)`, `THEN BEGIN`); read with it, fixed by `isu fix`";
    UnknownStatement = "unknown_statement", ParseError, "a statement Isu does not have (BREAK, CONTINUE, WHILE, ELSE IF)";
    HeaderForm = "header_form", ParseError, "a step header written without its `:` or with one too many (`LOOP`, `LOOP: \"desc\"`, `S2 LOOP`); accepted (warning)";
    FieldOrder = "field_order", ParseError, "fields of a section or step out of their canonical order; accepted (warning)";

    // Programs that parse but are not valid.
    MissingStepId = "missing_step_id", StaticError, "a step without an ID while META AUTO_ID is not true";
    DuplicateStepId = "duplicate_step_id", StaticError, "two steps share one ID";
    StepRenumbered = "step_renumbered", StaticError, "explicit step IDs did not follow the canonical scheme and were renumbered (warning)";
    UnknownStep = "unknown_step", StaticError, "a patch names a step ID the program does not have";
    UnknownDeclaration = "unknown_declaration", StaticError, "a patch names a STATE, LOCAL or TYPES entry the program does not have";
    DuplicateDeclaration = "duplicate_declaration", StaticError, "a name declared twice across ARGS, STATE and LOCAL";
    UndeclaredVariable = "undeclared_variable", StaticError, "a name used but declared in none of ARGS, STATE, LOCAL";
    UndeclaredLoopVariable = "undeclared_loop_variable", StaticError, "a loop variable not declared in LOCAL";
    TypeMismatch = "type_mismatch", StaticError, "an expression of one type where another is required";
    InvalidMapKeyType = "invalid_map_key_type", StaticError, "a map whose key type is neither int nor string";
    AmbiguousLiteral = "ambiguous_literal", StaticError, "a literal whose type nothing around it fixes, such as (const []) compared with (const [])";
    UnknownFunction = "unknown_function", StaticError, "a call to a function that is neither standard nor from a loaded pack";
    WrongArity = "wrong_arity", StaticError, "a call with the wrong number of arguments";
    ReturnTypeMismatch = "return_type_mismatch", StaticError, "a RETURN whose value is not of the type FUNC RETURNS names";
    MissingReturn = "missing_return", StaticError, "a path through STEPS that can reach the end without a RETURN";
    UnassignedVariable = "unassigned_variable", StaticError, "a LOCAL read where no assignment can have happened yet";
    UnreachableStep = "unreachable_step", StaticError, "a step after a RETURN on every path (warning)";
    BreakOutsideLoop = "break_outside_loop", StaticError, "a BREAK that is not inside the BODY of a LOOP";
    ContinueOutsideLoop = "continue_outside_loop", StaticError, "a CONTINUE that is not inside the BODY of a LOOP";
    DuplicateStruct = "duplicate_struct", StaticError, "two structs of TYPES share one name";
    EmptyStruct = "empty_struct", StaticError, "a struct of TYPES without fields (a struct has at least one)";
    DuplicateField = "duplicate_field", StaticError, "a field declared twice in one struct, or given twice in one (struct ...) value";
    RecursiveStruct = "recursive_struct", StaticError, "a struct whose fields hold the struct itself, directly or through other structs, arrays or maps (fields are fixed)";
    UnknownStruct = "unknown_struct", StaticError, "a type or (struct NAME ...) naming a struct TYPES does not declare";
    UnknownField = "unknown_field", StaticError, "a field the struct does not declare, in (struct ...), (field ...) or a field place";
    MissingStructField = "missing_struct_field", StaticError, "a (struct ...) value that leaves out a declared field";
    FieldTypeMismatch = "field_type_mismatch", StaticError, "a (struct ...) field whose value is not of the field's declared type";
    IoLengthMismatch = "io_length_mismatch", StaticError, "IO INPUT and OUTPUT have different lengths";
    IoArgumentMismatch = "io_argument_mismatch", StaticError, "an IO INPUT object whose keys are not exactly the ARGS names";
    IoTypeMismatch = "io_type_mismatch", StaticError, "an IO value that does not have the type of its argument or of RETURNS";

    // Failures while running: the language's own codes (isu_lang::codes).
    @runtime;

    // IO examples that do not hold.
    TestMismatch = "test_mismatch", TestFail, "an IO example's result differs from its OUTPUT";
    TestError = "test_error", TestFail, "an IO example stopped with a runtime error";

    // Failures of a command around the program.
    IoError = "io_error", IoError, "a file or stream the command could not read or write (missing, unreadable, a full disk)";
    WriteRefused = "write_refused", IoError, "a file the command would rewrite is read-only (`--force` rewrites it) or is a folder";
    InvalidUsage = "invalid_usage", UsageError, "an unknown command or flag, a missing or bad argument";
    // Requests that are not about a program.
    PathOutsideRoot = "path_outside_root", InputError, "a path that leads outside the project root (through `..`, an absolute path or a symlink)";
    InvalidStoreUrl = "invalid_store_url", InputError, "a memory store URL not of the form file://PATH.jsonl or sqlite://PATH#NAMESPACE";
    InvalidRecord = "invalid_record", InputError, "a memory record that is not a JSON object, whose kind or text is not a string, or that is too large";
    InvalidQuery = "invalid_query", InputError, "a memory query with a limit that is not a positive integer, or a malformed where clause";
    CorruptStore = "corrupt_store", InputError, "a memory store line or row that is not a record envelope (nothing is rewritten)";
    StoreFailed = "store_failed", InputError, "a memory store that cannot be opened, locked, read or written";
    UnknownObject = "unknown_object", InputError, "an MCP object path that names nothing (see tree)";
    UnknownOperation = "unknown_operation", InputError, "an interface the object does not have, or an operation its interface does not have";
    InvalidArguments = "invalid_arguments", InputError, "tool or operation arguments missing, unknown, or of the wrong type (checked before the call)";
    ArgumentTooLarge = "argument_too_large", InputError, "tool arguments over 1 MiB of JSON, or a path over 1024 bytes";
    TreeTooLarge = "tree_too_large", InputError, "a tree answer that would list more than 2000 objects (ask for less depth)";
    OutcomeUnknown = "outcome_unknown", InputError, "an operation that did not finish in time; whether it took effect is unknown (never retried)";
    BackendFailed = "backend_failed", InputError, "no backend serves the target, or the backend itself failed";
    WriteFailed = "write_failed", InputError, "a file the operation was to write could not be written";
    DocumentTooLarge = "document_too_large", InputError, "a document sent to the language server (isu lsp) over its 4 MiB limit; it is not checked (isu check checks it)";
}

impl From<RuntimeCode> for Code {
    fn from(c: RuntimeCode) -> Code {
        Code::Runtime(c)
    }
}

impl PartialEq<RuntimeCode> for Code {
    fn eq(&self, other: &RuntimeCode) -> bool {
        *self == Code::Runtime(*other)
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A place in the source, as the JSON shape shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Location {
    pub line: u32,
    pub column: u32,
    /// Byte offsets of the region.
    pub start: u32,
    pub end: u32,
}

impl From<Span> for Location {
    fn from(s: Span) -> Location {
        Location {
            line: s.line,
            column: s.col,
            start: s.lo,
            end: s.hi,
        }
    }
}

/// A secondary place the diagnostic points at ("the BEGIN opened here").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Label {
    pub span: Location,
    pub message: String,
}

/// A variable a failing step read, with its value as JSON (long values truncated).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VarValue {
    pub name: String,
    pub value: serde_json::Value,
}

/// A loop round in progress: the LOOP's step, the round (from 1), and the
/// loop variable's value in it (none for `while`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoopRound {
    pub step: String,
    pub round: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub var: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
}

/// A variable's value at the end of a step that changed it (as diagnostics
/// show values: long ones cut short). When only an element of it is known,
/// `index` is the element's path and `value` the element's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueChange {
    pub step: String,
    pub var: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub index: Vec<serde_json::Value>,
    pub value: serde_json::Value,
    /// The innermost loop round the step ran in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<LoopRound>,
}

/// How sure a [`Fix`] is, in the sense of rustc's suggestions: a
/// machine-applicable fix is what the writer meant beyond doubt (`isu fix`
/// applies it); one that may be incorrect is a likely repair that a person or
/// a model should confirm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Applicability {
    MachineApplicable,
    MaybeIncorrect,
}

/// One text replacement: the bytes `start..end` of the text the diagnostic's
/// spans point into become `replacement` (an insertion when the span is empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub span: Location,
    pub replacement: String,
}

/// A repair of what a diagnostic reports: text edits, applied together to the
/// text its spans point into, with how sure it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
}

impl Fix {
    /// A certain fix: the text of `span` becomes `replacement`.
    pub fn replace(span: Span, replacement: impl Into<String>) -> Fix {
        Fix::edits(vec![(span, replacement.into())])
    }

    /// A certain fix of several edits, applied together.
    pub fn edits(edits: Vec<(Span, String)>) -> Fix {
        Fix {
            applicability: Applicability::MachineApplicable,
            edits: edits
                .into_iter()
                .map(|(span, replacement)| Edit {
                    span: span.into(),
                    replacement,
                })
                .collect(),
        }
    }

    /// The same fix, marked as one that may be incorrect.
    pub fn maybe_incorrect(mut self) -> Fix {
        self.applicability = Applicability::MaybeIncorrect;
        self
    }

    pub fn is_certain(&self) -> bool {
        self.applicability == Applicability::MachineApplicable
    }
}

/// The one diagnostic type. Its JSON form is the shape of design.md section 3:
/// `kind`, `code`, `severity`, `step`, `span`, `message`, and where useful
/// `expected`, `actual`, `vars`, `hint`, `fix`, `labels`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    pub kind: Kind,
    pub code: Code,
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<StepId>,
    /// The ID written on the step in the source, when it is not `step` (the
    /// step was renumbered, or its text does not parse yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_step: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Location>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<VarValue>,
    /// For a runtime error: the loop rounds in progress, outermost first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<LoopRound>,
    /// For a `test_mismatch`: the returned variables' values after each step
    /// that changed them (the last 20).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<ValueChange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<Label>,
    /// More lines of explanation (a backend's notes), each a sentence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// A fix the phase that found the error could not write, for want of the
    /// layout of the text; the pipeline writes it (see `crate::fix`).
    #[serde(skip)]
    pub pending: Option<Box<PendingFix>>,
}

/// A fix that needs the layout of the source text to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PendingFix {
    /// Declare `name: ty` in LOCAL.
    Declare { name: String, ty: String },
}

impl Diagnostic {
    /// An error with `code` (its kind follows from the code).
    pub fn error(code: impl Into<Code>, message: impl Into<String>) -> Diagnostic {
        let code = code.into();
        Diagnostic {
            kind: code.kind(),
            code,
            severity: Severity::Error,
            step: None,
            source_step: None,
            span: None,
            message: message.into(),
            expected: None,
            actual: None,
            vars: Vec::new(),
            rounds: Vec::new(),
            history: Vec::new(),
            hint: None,
            fix: None,
            labels: Vec::new(),
            notes: Vec::new(),
            pending: None,
        }
    }

    /// A warning with `code`.
    pub fn warning(code: impl Into<Code>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Points at `span` (a synthetic span is left out).
    pub fn at(mut self, span: Span) -> Diagnostic {
        if !span.is_synthetic() {
            self.span = Some(span.into());
        }
        self
    }

    /// Names the step the error belongs to.
    pub fn in_step(mut self, step: Option<&StepId>) -> Diagnostic {
        self.step = step.cloned();
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(fix);
        self
    }

    pub fn with_expected(mut self, expected: impl Serialize) -> Diagnostic {
        self.expected = serde_json::to_value(expected).ok();
        self
    }

    pub fn with_actual(mut self, actual: impl Serialize) -> Diagnostic {
        self.actual = serde_json::to_value(actual).ok();
        self
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        if !span.is_synthetic() {
            self.labels.push(Label {
                span: span.into(),
                message: message.into(),
            });
        }
        self
    }

    pub fn with_vars(mut self, vars: Vec<VarValue>) -> Diagnostic {
        self.vars = vars;
        self
    }

    pub fn with_notes(mut self, notes: Vec<String>) -> Diagnostic {
        self.notes = notes;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The JSON object of this diagnostic.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]: {}", self.kind.as_str(), self.code, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// The most diagnostics of one code a report shows (`spec/errors.md`).
pub const MAX_PER_CODE: usize = 100;

/// The diagnostics a report shows: the first [`MAX_PER_CODE`] of each code,
/// in order, then for each code that had more, one diagnostic of that code
/// saying how many were left out. One mistake repeated across a large
/// program (a misspelled name used everywhere) so gives a report of a
/// readable size; the exit code, which follows the first error, is the same.
pub fn cap(diags: &[Diagnostic]) -> std::borrow::Cow<'_, [Diagnostic]> {
    let mut seen: std::collections::BTreeMap<Code, (usize, Severity)> =
        std::collections::BTreeMap::new();
    for d in diags {
        seen.entry(d.code).or_insert((0, d.severity)).0 += 1;
    }
    if seen.values().all(|&(n, _)| n <= MAX_PER_CODE) {
        return std::borrow::Cow::Borrowed(diags);
    }
    let mut shown: std::collections::BTreeMap<Code, usize> = std::collections::BTreeMap::new();
    let mut out: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| {
            let n = shown.entry(d.code).or_insert(0);
            *n += 1;
            *n <= MAX_PER_CODE
        })
        .cloned()
        .collect();
    // In the order each code first appeared.
    let mut more: Vec<(usize, Code, usize, Severity)> = seen
        .iter()
        .filter(|(_, &(n, _))| n > MAX_PER_CODE)
        .filter_map(|(&code, &(n, sev))| {
            let first = diags.iter().position(|d| d.code == code)?;
            Some((first, code, n - MAX_PER_CODE, sev))
        })
        .collect();
    more.sort_unstable_by_key(|m| m.0);
    for (_, code, left_out, severity) in more {
        let what = match (severity, left_out) {
            (Severity::Error, 1) => "error",
            (Severity::Error, _) => "errors",
            (Severity::Warning, 1) => "warning",
            (Severity::Warning, _) => "warnings",
        };
        out.push(Diagnostic {
            severity,
            ..Diagnostic::error(
                code,
                format!(
                    "and {left_out} more `{code}` {what}, not shown: a report shows at most {MAX_PER_CODE} of one code"
                ),
            )
            .with_hint("fix the ones shown (often one mistake repeated) and check again")
        });
    }
    std::borrow::Cow::Owned(out)
}

/// Whether any diagnostic in the list is an error (not a warning).
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

/// The exit code for a list of diagnostics: that of the first error's kind, or 0.
pub fn exit_code(diags: &[Diagnostic]) -> i32 {
    diags
        .iter()
        .find(|d| d.is_error())
        .map_or(0, |d| d.kind.exit_code())
}

/// Renders diagnostics for people: the message, the source line and a caret,
/// then the step, the expected and actual values, the variables and the hint.
/// `source` is the text the spans point into, when there is one.
pub fn render(diags: &[Diagnostic], source: Option<&Source>, color: bool) -> String {
    let mut out = term::termcolor::Buffer::no_color();
    if color {
        out = term::termcolor::Buffer::ansi();
    }
    let name = source.map_or("<input>", |s| s.name.as_str());
    let text = source.map_or("", |s| s.text.as_str());
    let file = SimpleFile::new(name, text);
    let config = term::Config::default();
    for d in diags {
        let cs_diag = to_codespan(d, source.is_some());
        if term::emit_to_write_style(&mut out, &config, &file, &cs_diag).is_err() {
            // Rendering fails only on a span outside the text: say it without the snippet.
            let plain = to_codespan(d, false);
            let _ = term::emit_to_write_style(&mut out, &config, &file, &plain);
        }
    }
    String::from_utf8_lossy(out.as_slice()).into_owned()
}

fn to_codespan(d: &Diagnostic, with_source: bool) -> cs::Diagnostic<()> {
    let severity = match d.severity {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
    };
    let mut labels = Vec::new();
    if with_source {
        if let Some(loc) = d.span {
            let label_text = d.step.as_ref().map(|s| match &d.source_step {
                Some(w) => format!("in step {s} (written {w})"),
                None => format!("in step {s}"),
            });
            labels.push(
                cs::Label::primary((), loc.start as usize..loc.end.max(loc.start) as usize)
                    .with_message(label_text.unwrap_or_default()),
            );
        }
        for l in &d.labels {
            labels.push(
                cs::Label::secondary((), l.span.start as usize..l.span.end as usize)
                    .with_message(l.message.clone()),
            );
        }
    }
    let mut notes = Vec::new();
    if let Some(step) = &d.step {
        if !with_source || d.span.is_none() {
            notes.push(format!("step: {step}"));
        }
    }
    if !with_source {
        if let Some(loc) = d.span {
            notes.push(format!("at line {}, column {}", loc.line, loc.column));
        }
    }
    if let Some(e) = &d.expected {
        notes.push(format!("expected: {e}"));
    }
    if let Some(a) = &d.actual {
        notes.push(format!("actual: {a}"));
    }
    for v in &d.vars {
        notes.push(format!("{} = {}", v.name, v.value));
    }
    for r in &d.rounds {
        match (&r.var, &r.value) {
            (Some(var), Some(value)) => notes.push(format!(
                "in round {} of {} ({var} = {value})",
                r.round, r.step
            )),
            _ => notes.push(format!("in round {} of {}", r.round, r.step)),
        }
    }
    for c in &d.history {
        let place = c
            .index
            .iter()
            .fold(c.var.clone(), |acc, k| format!("{acc}[{k}]"));
        let round = c.round.as_ref().map_or(String::new(), |r| {
            format!(" (round {} of {})", r.round, r.step)
        });
        notes.push(format!("after {}{round}: {place} = {}", c.step, c.value));
    }
    notes.extend(d.notes.iter().cloned());
    if let Some(h) = &d.hint {
        notes.push(format!("hint: {h}"));
    }
    cs::Diagnostic::new(severity)
        .with_message(format!("{}: {}", d.kind.as_str(), d.message))
        .with_code(d.code.as_str())
        .with_labels(labels)
        .with_notes(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_snake_case() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            // One text names one code of a kind; only `invalid_number` is of
            // two kinds: a number in the text, and PARSE_FLOAT's argument.
            assert!(seen.insert((c.kind().as_str(), c.as_str())), "{c} twice");
            let shared = Code::ALL
                .iter()
                .filter(|d| d.as_str() == c.as_str())
                .count();
            assert!(shared == 1 || c.as_str() == "invalid_number", "{c} twice");
            assert_eq!(Code::of_kind(c.kind(), c.as_str()), Some(c));
            let text = c.as_str();
            assert!(text.starts_with(|ch: char| ch.is_ascii_lowercase()), "{c}");
            assert!(
                text.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{c}"
            );
        }
    }

    #[test]
    fn json_shape() {
        let src = Source::new("p.isu", "line one\n  (var x)\n");
        let d = Diagnostic::error(Code::UndeclaredVariable, "x is not declared")
            .at(src.span(11, 18))
            .in_step(StepId::parse("S2_1").as_ref())
            .with_hint("declare it in LOCAL");
        let json = serde_json::to_string(&d).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"kind":"StaticError","code":"undeclared_variable","severity":"error","step":"S2_1","span":{"line":2,"column":3,"start":11,"end":18},"message":"x is not declared","hint":"declare it in LOCAL"}"#
        );
        let human = render(&[d], Some(&src), false);
        assert!(human.contains("error[undeclared_variable]: StaticError: x is not declared"));
        assert!(human.contains("p.isu:2:3"));
        assert!(human.contains("^^^^^^^"));
        assert!(human.contains("hint: declare it in LOCAL"));
    }

    #[test]
    fn reports_show_at_most_a_hundred_of_one_code() {
        let mut diags: Vec<Diagnostic> = (0..250)
            .map(|i| Diagnostic::error(Code::UndeclaredVariable, format!("x{i}")))
            .collect();
        diags.insert(3, Diagnostic::warning(Code::UnreachableStep, "w"));
        diags.extend((0..101).map(|_| Diagnostic::warning(Code::StepRenumbered, "r")));
        let shown = cap(&diags);
        assert_eq!(shown.len(), MAX_PER_CODE * 2 + 1 + 2);
        let of = |c: Code| shown.iter().filter(|d| d.code == c).count();
        assert_eq!(of(Code::UndeclaredVariable), MAX_PER_CODE + 1);
        assert_eq!(of(Code::UnreachableStep), 1);
        assert_eq!(shown[3].code, Code::UnreachableStep);
        assert_eq!(shown[MAX_PER_CODE].message, "x99");
        let tail: Vec<(&str, Severity)> = shown[shown.len() - 2..]
            .iter()
            .map(|d| (d.message.as_str(), d.severity))
            .collect();
        assert_eq!(
            tail,
            [
                ("and 150 more `undeclared_variable` errors, not shown: a report shows at most 100 of one code", Severity::Error),
                ("and 1 more `step_renumbered` warning, not shown: a report shows at most 100 of one code", Severity::Warning),
            ]
        );
        assert_eq!(exit_code(&shown), exit_code(&diags));
        let few = &diags[..50];
        assert!(matches!(cap(few), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn exit_codes_are_distinct_per_kind() {
        let codes: std::collections::BTreeSet<i32> =
            Kind::ALL.iter().map(|k| k.exit_code()).collect();
        assert_eq!(codes.len(), Kind::ALL.len());
        // None collides with the exit codes that are not a diagnostic's kind.
        for other in [0, 7, 8, 9] {
            assert!(!codes.contains(&other), "{other}");
        }
        assert_eq!(
            exit_code(&[Diagnostic::warning(Code::StepRenumbered, "w")]),
            0
        );
    }
}
