//! The VS Code extension (`editors/vscode/`): its TextMate grammar is the
//! one `isu grammar --format textmate` prints (`ISU_BLESS=1` rewrites it)
//! and covers every keyword, operator, iterator form, type name and
//! standard function; its language configuration names only keywords;
//! `vscode-tmgrammar-test` (npm) passes on the sample programs of
//! `editors/vscode/test/grammar/`; and `npm run package` builds the `.vsix`.
//! The npm tools run when `editors/vscode/node_modules` is installed
//! (`npm ci` there); CI installs it and sets `ISU_REQUIRE_EDITOR_TOOLS=1`.

mod common;

use isu_host::grammar::textmate::{self, keyword_scope};
use isu_host::stdlib::STDLIB;
use isu_host::syntax::vocab::{self, Kw};
use regex::Regex;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn extension() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vscode")
}

fn grammar_path() -> PathBuf {
    extension().join("syntaxes/isu.tmLanguage.json")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_committed_grammar_is_the_generated_one() {
    let generated = textmate::print();
    if common::snapshot::blessing() {
        std::fs::write(grammar_path(), &generated).unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    let committed = read(&grammar_path());
    assert!(
        committed == generated,
        "editors/vscode/syntaxes/isu.tmLanguage.json is not the generated grammar (ISU_BLESS=1 rewrites it):\n{}",
        common::snapshot::line_diff(&generated, &committed)
    );
    let o = Command::new(env!("CARGO_BIN_EXE_isu"))
        .args(["grammar", "--format", "textmate"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout), generated);
}

/// Every `match` of the grammar (with the scope of the pattern or of its
/// captures), compiled.
fn patterns(v: &Value, out: &mut Vec<(Regex, Value)>) {
    match v {
        Value::Object(o) => {
            if let Some(Value::String(m)) = o.get("match") {
                let re = Regex::new(m).unwrap_or_else(|e| panic!("{m}: {e}"));
                out.push((re, v.clone()));
            }
            for child in o.values() {
                patterns(child, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|c| patterns(c, out)),
        _ => {}
    }
}

/// The scope the grammar gives the whole of `text` (the first pattern that
/// matches it all), or that of capture 2 when `text` is `(` and a word.
fn scope_of(all: &[(Regex, Value)], text: &str) -> Option<String> {
    all.iter().find_map(|(re, p)| {
        let c = re.captures(text)?;
        let whole = c.get(0)?;
        if whole.start() != 0 || whole.end() != text.len() {
            return None;
        }
        match (p.get("name"), c.get(2)) {
            (Some(Value::String(n)), _) => Some(n.clone()),
            (None, Some(_)) => p["captures"]["2"]["name"].as_str().map(str::to_owned),
            _ => None,
        }
    })
}

#[test]
fn the_grammar_covers_the_vocabulary() {
    let grammar: Value = serde_json::from_str(&textmate::print()).unwrap_or_else(|e| panic!("{e}"));
    let mut all = Vec::new();
    patterns(&grammar["repository"], &mut all);
    for &k in Kw::ALL {
        assert_eq!(
            scope_of(&all, k.as_str()).as_deref(),
            Some(keyword_scope(k)),
            "{k:?}"
        );
    }
    for op in vocab::OPERATOR_NAMES.iter().chain(vocab::ITER_FORMS) {
        assert_eq!(
            scope_of(&all, &format!("({op}")).as_deref(),
            Some(textmate::OPERATOR_SCOPE),
            "{op}"
        );
    }
    for f in STDLIB {
        assert_eq!(
            scope_of(&all, f.name).as_deref(),
            Some(textmate::FUNCTION_SCOPE),
            "{}",
            f.name
        );
    }
    for t in vocab::SCALAR_TYPES.iter().chain([&vocab::MAP_TYPE]) {
        assert_eq!(
            scope_of(&all, t).as_deref(),
            Some(textmate::TYPE_SCOPE),
            "{t}"
        );
    }
    assert_eq!(
        scope_of(&all, "math.GCD").as_deref(),
        Some(textmate::PACK_FUNCTION_SCOPE)
    );
    assert_eq!(
        scope_of(&all, "S2_10").as_deref(),
        Some(textmate::STEP_ID_SCOPE)
    );
    // A word that is none of them is left alone.
    assert_eq!(scope_of(&all, "total"), None);
}

#[test]
fn the_language_configuration_names_only_keywords() {
    let text = read(&extension().join("language-configuration.json"));
    let config: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(config["comments"]["lineComment"], ";");
    let words = Regex::new(r"\b[A-Z]{2,}\b").unwrap_or_else(|e| panic!("{e}"));
    for w in words.find_iter(&text) {
        assert!(
            Kw::from_word(w.as_str()).is_some(),
            "{} is no keyword",
            w.as_str()
        );
    }
    // The indentation rules, run by JavaScript's engine (VS Code's): indent
    // after a header, a BEGIN and a brace, outdent at END and a brace.
    let cases: &[(&str, bool, bool)] = &[
        ("    S1: LOOP \"walk\"", true, false),
        ("    LOOP \"walk \\\" on\"", true, false),
        ("  SEQ: BEGIN", true, false),
        ("IF:", true, false),
        ("FUNC:", true, false),
        ("      THEN: {", true, false),
        ("      COND: (var b)", false, false),
        ("      TARGET: x", false, false),
        ("  END", false, true),
        ("  }", false, true),
        ("  ENDING:", true, false),
    ];
    let script = "const c = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')).indentationRules;\
        const inc = new RegExp(c.increaseIndentPattern), dec = new RegExp(c.decreaseIndentPattern);\
        for (const l of JSON.parse(process.argv[2])) console.log(`${inc.test(l)} ${dec.test(l)}`);";
    let lines: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let o = Command::new("node")
        .args(["-e", script])
        .arg(extension().join("language-configuration.json"))
        .arg(serde_json::to_string(&lines).unwrap_or_default())
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = String::from_utf8_lossy(&o.stdout);
    let want: Vec<String> = cases.iter().map(|(_, i, d)| format!("{i} {d}")).collect();
    assert_eq!(got.lines().collect::<Vec<_>>(), want, "{lines:?}");
}

/// Whether the extension's npm packages are installed; a missing install
/// fails when CI requires it.
fn npm_ready() -> bool {
    let ready = extension().join("node_modules/.bin/vsce").exists()
        && extension()
            .join("node_modules/.bin/vscode-tmgrammar-test")
            .exists();
    if !ready {
        let required = std::env::var_os("ISU_REQUIRE_EDITOR_TOOLS").is_some_and(|v| v == "1");
        assert!(
            !required,
            "editors/vscode/node_modules is missing: run `npm ci` in editors/vscode"
        );
        eprintln!(
            "skipped: editors/vscode/node_modules is not installed (npm ci in editors/vscode)"
        );
    }
    ready
}

fn npm(args: &[&str]) -> String {
    let o = Command::new("npm")
        .args(args)
        .current_dir(extension())
        .output()
        .unwrap_or_else(|e| panic!("cannot run npm: {e}"));
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "npm {args:?} failed:\n{out}");
    out
}

#[test]
fn vscode_tmgrammar_test_passes_on_the_samples() {
    if !npm_ready() {
        return;
    }
    let out = npm(&["run", "--silent", "test:grammar"]);
    assert!(!out.contains("ERROR"), "{out}");
    // The samples are Isu too: comments do not change the program.
    for entry in
        std::fs::read_dir(extension().join("test/grammar")).unwrap_or_else(|e| panic!("{e}"))
    {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        assert!(
            read(&path).starts_with("; SYNTAX TEST \"source.isu\""),
            "{}",
            path.display()
        );
    }
}

#[test]
fn the_extension_packages_as_a_vsix() {
    if !npm_ready() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vsix");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let vsix = dir.join("isu.vsix");
    let vsix_s = vsix.to_str().unwrap_or_default();
    npm(&["run", "--silent", "package", "--", "--out", vsix_s]);
    // A .vsix is a zip: list it with Python's zipfile.
    let o = Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
            vsix_s,
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let names = String::from_utf8_lossy(&o.stdout);
    for want in [
        "extension/package.json",
        "extension/extension.js",
        "extension/language-configuration.json",
        "extension/syntaxes/isu.tmLanguage.json",
        "extension/node_modules/vscode-languageclient/package.json",
    ] {
        assert!(
            names.lines().any(|n| n == want),
            "{want} not in the vsix:\n{names}"
        );
    }
    assert!(!names.contains("extension/test/"), "{names}");
}
