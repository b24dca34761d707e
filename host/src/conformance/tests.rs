use super::*;
use isu_plugin_api::{Artifact, BackendInfo, CompileOptions, PluginDiagnostic};

const ADD: &str = "; run: {\"a\": 2} => 3\n; run: {\"a\": 9223372036854775807} => error int_overflow at S1\nFUNC:\n  NAME: inc\n  ARGS: [a: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (add (var a) (const 1))\n  END\n";

const MAP: &str = "; run: {} => {\"k\": 1}\nFUNC:\n  NAME: m\n  ARGS: []\n  RETURNS: map<string,int>\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (const {\"k\": 1})\n  END\n";

/// The interpreter expects 3 but the line says 4.
const WRONG: &str = "; run: {\"a\": 2} => 4\nFUNC:\n  NAME: inc\n  ARGS: [a: int]\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (add (var a) (const 1))\n  END\n";

fn case(name: &str, text: &str) -> Case {
    Case {
        name: name.into(),
        path: PathBuf::from(format!("{name}.isu")),
        text: text.into(),
    }
}

/// A backend that runs the IIR in the interpreter, lacks maps, and answers
/// 100 wherever the interpreter answers 3.
struct Skewed;

impl Backend for Skewed {
    fn info(&self) -> BackendInfo {
        BackendInfo {
            name: "skewed".into(),
            version: "0".into(),
            targets: vec!["skewed".into()],
            emits: vec!["iir".into()],
            lacks: vec!["map".into()],
        }
    }

    fn compile(
        &self,
        program: &Program,
        _: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        Ok(vec![Artifact {
            kind: "iir".into(),
            file_name: "p.json".into(),
            bytes: serde_json::to_vec(program).unwrap_or_default(),
        }])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        _: &ExecLimits,
    ) -> Result<Literal, PluginDiagnostic> {
        let program: Program = serde_json::from_slice(&artifacts[0].bytes)
            .map_err(|e| PluginDiagnostic::backend("backend_failed", e.to_string()))?;
        let args = serde_json::to_value(args).unwrap_or_default();
        match interp::run(&program, &args, &RunOptions::default(), None) {
            Ok(Literal::Int(3)) => Ok(Literal::Int(100)),
            Ok(v) => Ok(v),
            Err(d) => Err(PluginDiagnostic::runtime(
                d.code.as_str(),
                d.step.as_ref().map(|s| s.as_str()),
                d.message,
            )),
        }
    }
}

#[test]
fn the_interpreter_is_checked_against_the_run_lines() {
    let prepared = prepare(
        &[case("add", ADD), case("map", MAP), case("wrong", WRONG)],
        &PackFunctions::default(),
    );
    let r = interpreter_report(&prepared);
    assert_eq!((r.passed, r.failed, r.unsupported), (2, 1, 0));
    assert_eq!(
        r.failures[0].to_string(),
        "wrong line 1: {\"a\":2}\n  expected: 4\n  got:      3"
    );
    assert_eq!(
        r.summary(),
        "interpreter: 2 passed, 1 failed, 0 unsupported"
    );
}

#[test]
fn a_backend_is_compared_with_the_interpreter_and_lacking_is_unsupported() {
    let prepared = prepare(
        &[case("add", ADD), case("map", MAP), case("wrong", WRONG)],
        &PackFunctions::default(),
    );
    let r = backend_report(&prepared, "skewed", &Skewed, &PackFunctions::default());
    assert_eq!((r.passed, r.failed, r.unsupported), (0, 2, 1));
    assert_eq!(
        r.unsupported_cases,
        [Unsupported {
            case: "map".into(),
            features: vec!["map".into()]
        }]
    );
    // Compared with the interpreter (3), not with the run line (4).
    let wrong: Vec<String> = r
        .failures
        .iter()
        .filter(|f| f.case == "wrong")
        .map(|f| format!("{} / {}", f.expected, f.got))
        .collect();
    assert_eq!(wrong, ["3 / 100"]);
    // The error run of `add` matched: only its first run failed.
    let add: Vec<usize> = r
        .failures
        .iter()
        .filter(|f| f.case == "add")
        .map(|f| f.line)
        .collect();
    assert_eq!(add, [1]);
}

#[test]
fn a_broken_case_fails_everywhere() {
    let prepared = prepare(
        &[case("bad", "; run: {} => 1\nFUNC:\n  NAME f\n")],
        &PackFunctions::default(),
    );
    let r = interpreter_report(&prepared);
    assert_eq!((r.passed, r.failed), (0, 1));
    assert!(
        r.failures[0]
            .got
            .starts_with("the case is not a valid program"),
        "{}",
        r.failures[0].got
    );
    let b = backend_report(&prepared, "skewed", &Skewed, &PackFunctions::default());
    assert_eq!(b.failed, 1);
    let none = prepare(&[case("norun", "FUNC:\n")], &PackFunctions::default());
    assert!(interpreter_report(&none).failures[0]
        .got
        .starts_with("bad run line"));
}

#[test]
fn outcomes_print_in_case_notation() {
    let e = Outcome::Error {
        code: "zero_step".into(),
        step: None,
    };
    assert_eq!(e.to_string(), "error zero_step at -");
    assert_eq!(Outcome::Value(Literal::Int(-1)).to_string(), "-1");
}

#[test]
fn the_built_in_cases_are_the_conformance_folder_sorted_by_name() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/cases");
    let on_disk = load_cases(&dir).unwrap();
    let built_in = builtin_cases();
    let pairs = |cases: &[Case]| -> Vec<(String, String)> {
        cases
            .iter()
            .map(|c| (c.name.clone(), c.text.clone()))
            .collect()
    };
    assert_eq!(pairs(&built_in), pairs(&on_disk));
    assert!(built_in.windows(2).all(|w| w[0].name < w[1].name));
    assert_eq!(
        built_in[0].path,
        PathBuf::from(format!("conformance/cases/{}.isu", built_in[0].name))
    );
}
