//! The texts the exported grammars are checked on, shared by the agreement
//! tests (host/tests/grammar_agreement.rs and agreement/, which runs
//! llguidance's Rust crate): every program of the test data printed
//! canonically, the patches of the patch cases, and the invalid texts, each
//! rejected by the front end.

use isu_host::diag::has_errors;
use isu_host::grammar::{Start, Vocabulary};
use isu_host::{canon, pipeline, syntax, Code, Diagnostic, Kind, Source};
use std::path::{Path, PathBuf};

/// One text and what the grammar must make of it.
#[derive(Debug, Clone)]
pub struct Text {
    pub name: String,
    pub text: String,
    pub start: Start,
    /// Whether the grammar must accept it (else reject).
    pub accept: bool,
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The functions a grammar of the tests allows: the standard ones and
/// `packs` (the test data calls none: its programs validate without packs).
pub fn vocabulary(packs: &[(&str, usize)]) -> Vocabulary {
    let mut v = Vocabulary::standard();
    for (name, arity) in packs {
        v.add(name, *arity);
    }
    v
}

/// The `.isu` files of a folder, sorted.
pub fn isu_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "isu")
                && !p.to_string_lossy().ends_with(".canon.isu")
        })
        .collect();
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn label(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The diagnostics of the front end.
pub fn front_end(text: &str) -> Vec<Diagnostic> {
    pipeline::check(&Source::new("t", text)).diags
}

/// The valid programs of the test data, printed canonically.
pub fn programs() -> Vec<Text> {
    let r = root();
    let mut out = Vec::new();
    for dir in [
        r.join("host/test_data/ok"),
        r.join("conformance/cases"),
        r.join("examples"),
        r.join("host/test_data/grammar/accept"),
    ] {
        for path in isu_files(&dir) {
            let text = read(&path);
            if text.trim_start().starts_with("PATCH:") {
                continue;
            }
            if has_errors(&front_end(&text)) {
                continue;
            }
            let fe = pipeline::parse_canonical(&Source::new("t", text.as_str()));
            let Some(program) = fe.program else { continue };
            out.push(Text {
                name: label(&path),
                text: canon::print(&program),
                start: Start::Program,
                accept: true,
            });
        }
    }
    out
}

/// The patches of the patch cases (and of grammar/accept and reject): those
/// that parse, printed canonically, must be accepted; the others rejected.
pub fn patches() -> Vec<Text> {
    let r = root();
    let mut files = Vec::new();
    let cases = r.join("host/test_data/patch");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&cases)
        .unwrap_or_else(|e| panic!("{}: {e}", cases.display()))
        .filter_map(Result::ok)
        .map(|e| e.path().join("patch.isu"))
        .filter(|p| p.exists())
        .collect();
    dirs.sort();
    files.extend(dirs);
    for dir in ["accept", "reject"] {
        files.extend(
            isu_files(&r.join("host/test_data/grammar").join(dir))
                .into_iter()
                .filter(|p| read(p).starts_with("PATCH:")),
        );
    }
    files
        .into_iter()
        .map(|path| {
            let text = read(&path);
            let (patch, diags) = syntax::parse_patch(&Source::new("p", text.as_str()));
            let (text, accept) = match patch.filter(|_| !has_errors(&diags)) {
                Some(p) => (canon::print_patch(&p), true),
                None => (text, false),
            };
            Text {
                name: label(&path),
                accept,
                text,
                start: Start::Patch,
            }
        })
        .collect()
}

/// The error cases the parser rejects for reasons a context-free grammar
/// cannot express (documented in the grammar's preamble): the grammar
/// accepts these, and only these, of the invalid texts.
pub const BEYOND_GRAMMAR: &[&str] = &[
    // invalid_type: a type named by a word that TYPES does not declare
    // (any name may be a struct's).
    "host/test_data/grammar/reject/capitalized_type.isu",
    // invalid_literal: a JSON object that repeats a key.
    "host/test_data/err/const_repeated_key.isu",
    // nesting_too_deep: more than 100 parentheses open at once.
    "host/test_data/err/deep_nesting.isu",
    // invalid_type, as above.
    "host/test_data/err/invalid_type_name.isu",
];

/// Static errors the grammar already prevents.
pub const GRAMMAR_PREVENTS: &[Code] = &[
    Code::UnknownFunction,
    Code::WrongArity,
    Code::InvalidMapKeyType,
];

/// Whether the diagnostics hold an error the grammar speaks about: a parse
/// error, or a static error the grammar prevents.
fn syntactic(diags: &[Diagnostic]) -> bool {
    diags
        .iter()
        .any(|d| d.is_error() && (d.kind == Kind::ParseError || GRAMMAR_PREVENTS.contains(&d.code)))
}

/// The invalid programs: the model mistakes of grammar/reject and the error
/// cases whose errors the grammar speaks about. `accept` is false for all
/// but those only the parser can catch ([`BEYOND_GRAMMAR`]).
pub fn invalid_programs() -> Vec<Text> {
    let r = root();
    let mut out = Vec::new();
    for dir in [
        r.join("host/test_data/grammar/reject"),
        r.join("host/test_data/err"),
    ] {
        for path in isu_files(&dir) {
            let text = read(&path);
            if text.starts_with("PATCH:") {
                continue;
            }
            let diags = front_end(&text);
            assert!(
                has_errors(&diags),
                "{}: the front end accepts it",
                path.display()
            );
            if !syntactic(&diags) {
                continue;
            }
            let name = label(&path);
            out.push(Text {
                accept: BEYOND_GRAMMAR.contains(&name.as_str()),
                name,
                text,
                start: Start::Program,
            });
        }
    }
    out
}
