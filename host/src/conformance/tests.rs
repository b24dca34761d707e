use super::*;
use crate::executor::ViaBackend;
use crate::interp::{self, RunOptions};
use isu_plugin_api::{
    Artifact, Backend, BackendCode, BackendInfo, CompileOptions, ExecOptions, FeatureSet, Literal,
    PluginDiagnostic,
};
use std::sync::Arc;

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

/// The step budget stops a loop; the case says it needs the limit.
const SPIN: &str = "; run: {} => error step_limit at S1\n; limits: max_steps=5\n; needs: limit_steps\nFUNC:\n  NAME: spin\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP\n      ITER: (while (const true))\n      BODY: BEGIN\n      END\n    S2: RETURN\n      EXPR: (const 0)\n  END\n";

/// Refused by the backend when compiling: its function is named `refuse`.
const REFUSED: &str = "; run: {} => 1\nFUNC:\n  NAME: refuse\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (const 1)\n  END\n";

/// A backend that runs the IIR in the interpreter, lacks maps, refuses a
/// function named `refuse` as unsupported, and answers 100 wherever the
/// interpreter answers 3.
struct Skewed;

impl Backend for Skewed {
    fn info(&self) -> BackendInfo {
        BackendInfo::new(
            "skewed",
            "0",
            &["skewed"],
            FeatureSet::all_of_except(1, &["map"]),
        )
        .emitting(&["iir"])
        .executing("iir", false)
    }

    fn compile(
        &self,
        program: &Program,
        _: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        if program.func.name.name == "refuse" {
            return Err(vec![PluginDiagnostic::backend(
                BackendCode::UnsupportedFeature,
                "no functions named refuse",
            )]);
        }
        let bytes = serde_json::to_vec(program).unwrap_or_default();
        Ok(vec![Artifact::new("iir", "p.json", bytes)])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let program: Program = serde_json::from_slice(&artifacts[0].bytes)
            .map_err(|e| PluginDiagnostic::backend(BackendCode::BackendFailed, e.to_string()))?;
        let args = serde_json::to_value(args).unwrap_or_default();
        let opts = RunOptions {
            max_steps: options.limits.max_steps,
            ..RunOptions::default()
        };
        match interp::run(&program, &args, &opts, None) {
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

fn prepare_all(cases: &[Case]) -> Vec<Prepared> {
    prepare(cases, &Functions::default(), &Options { jobs: 2 })
}

fn skewed_report(prepared: &[Prepared]) -> Report {
    let skewed = Skewed;
    let features = skewed.info().features;
    let executor = ViaBackend::new(Arc::new(skewed), "skewed", Functions::default());
    backend_report(prepared, &executor, &features, &Options { jobs: 2 })
}

#[test]
fn the_interpreter_is_checked_against_the_run_lines() {
    let prepared = prepare_all(&[case("add", ADD), case("map", MAP), case("wrong", WRONG)]);
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
    let prepared = prepare_all(&[
        case("add", ADD),
        case("map", MAP),
        case("refused", REFUSED),
        case("spin", SPIN),
        case("wrong", WRONG),
    ]);
    let r = skewed_report(&prepared);
    assert_eq!((r.passed, r.failed, r.unsupported), (1, 2, 2), "{r:#?}");
    assert_eq!(
        r.unsupported_cases,
        [
            Unsupported {
                case: "map".into(),
                features: vec!["map".into()],
                reason: "needs map".into(),
            },
            Unsupported {
                case: "refused".into(),
                features: vec![],
                reason: "no functions named refuse".into(),
            }
        ]
    );
    // The case's limits reach the backend: it stopped after 5 rounds.
    assert_eq!(r.cases_where(|v| *v == Verdict::Passed), ["spin"]);
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
    let prepared = prepare_all(&[case("bad", "; run: {} => 1\nFUNC:\n  NAME f\n")]);
    let r = interpreter_report(&prepared);
    assert_eq!((r.passed, r.failed), (0, 1));
    assert!(
        r.failures[0]
            .got
            .starts_with("the case is not a valid program"),
        "{}",
        r.failures[0].got
    );
    let b = skewed_report(&prepared);
    assert_eq!(b.failed, 1);
    let none = prepare_all(&[case("norun", "FUNC:\n")]);
    assert!(interpreter_report(&none).failures[0]
        .got
        .starts_with("bad case directive"));
    // A case stopped by a limit must say it needs the limit.
    let unsaid = prepare_all(&[case("spin", &SPIN.replace("; needs: limit_steps\n", ""))]);
    let got = &interpreter_report(&unsaid).failures[0].got;
    assert!(got.contains("add `; needs: limit_steps`"), "{got}");
    // And a case stopped by work, that it needs the work budget.
    let work = "; run: {} => error step_limit at S1\n; limits: max_steps=2\n; needs: limit_steps\nFUNC:\n  NAME: work\n  ARGS: []\n  RETURNS: int\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (call LEN (call CHARS (const \"abc\")))\n  END\n";
    let unsaid = prepare_all(&[case("work", work)]);
    let got = &interpreter_report(&unsaid).failures[0].got;
    assert!(got.contains("add `; needs: limit_work`"), "{got}");
    let said = prepare_all(&[case(
        "work",
        &work.replace("limit_steps\n", "limit_steps limit_work\n"),
    )]);
    assert!(interpreter_report(&said).failures.is_empty());
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
