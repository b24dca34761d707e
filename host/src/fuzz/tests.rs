#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::cases;
use crate::interp::RunOptions;
use isu_lang::stdlib::STDLIB;
use isu_plugin_api::{
    Artifact, BackendInfo, CompileOptions, ExecOptions, Node, Pack, PackFunction, PackInfo,
    PluginDiagnostic, FEATURE_SET_VERSION,
};
use std::collections::BTreeSet;

/// The interpreter as a backend with one bug: a negative int result comes
/// back as its absolute value.
struct AbsBug;

impl Backend for AbsBug {
    fn info(&self) -> BackendInfo {
        BackendInfo::new(
            "absbug",
            "1.0.0",
            &["absbug"],
            FeatureSet::all_of(FEATURE_SET_VERSION),
        )
        .executing("iir", false)
    }

    fn compile(
        &self,
        program: &Program,
        _: &CompileOptions,
    ) -> Result<Vec<Artifact>, Vec<PluginDiagnostic>> {
        let json = serde_json::to_vec(program).unwrap_or_default();
        Ok(vec![Artifact::new("iir", "p.json", json)])
    }

    fn execute(
        &self,
        artifacts: &[Artifact],
        args: &Literal,
        options: &ExecOptions,
    ) -> Result<Literal, PluginDiagnostic> {
        let program: Program = serde_json::from_slice(&artifacts[0].bytes).unwrap();
        let args = serde_json::to_value(args).unwrap();
        let opts = RunOptions::from(options.limits);
        match crate::interp::run(&program, &args, &opts, None) {
            Ok(Literal::Int(i)) if i < 0 => Ok(Literal::Int(i.wrapping_neg())),
            Ok(v) => Ok(v),
            Err(d) => Err(PluginDiagnostic::runtime(
                d.code.as_str(),
                d.step.map(|s| s.to_string()).as_deref(),
                d.message,
            )),
        }
    }
}

/// A pack whose functions have signatures of every shape.
struct Shapes;

impl Pack for Shapes {
    fn info(&self) -> PackInfo {
        let f = |name: &str, signature: &str| PackFunction {
            name: name.into(),
            signature: signature.into(),
            doc: "a test function".into(),
            errors: Vec::new(),
        };
        PackInfo {
            namespace: "shapes".into(),
            version: "1.0.0".into(),
            functions: vec![
                f("WORDS", "(string, int) -> string[]"),
                f("TOTAL", "(map<string,int>) -> int"),
                f("FLAG", "() -> bool"),
            ],
        }
    }

    fn call(&self, function: &str, args: &[Literal]) -> Result<Literal, PluginDiagnostic> {
        Ok(match function {
            "WORDS" => Literal::Array(vec![args[0].clone()]),
            "TOTAL" => Literal::Int(0),
            _ => Literal::Bool(true),
        })
    }

    fn lower(&self, _: &str, _: &str) -> Option<String> {
        None
    }
}

fn shown(g: &Generated) -> String {
    let runs: Vec<String> = g.body.runs.iter().map(|r| r.args.to_string()).collect();
    format!(
        "{:?}\n{}\n{}",
        g.body.limits,
        runs.join("\n"),
        canon::print(&g.body.program)
    )
}

#[test]
fn the_same_seed_makes_the_same_programs_and_another_seed_others() {
    let table = Functions::default();
    let a: Vec<String> = (0..20)
        .filter_map(|k| generate(7, k, &table, &pack_functions(&table, &[])))
        .map(|g| shown(&g))
        .collect();
    let b: Vec<String> = (0..20)
        .filter_map(|k| generate(7, k, &table, &pack_functions(&table, &[])))
        .map(|g| shown(&g))
        .collect();
    let c: Vec<String> = (0..20)
        .filter_map(|k| generate(8, k, &table, &pack_functions(&table, &[])))
        .map(|g| shown(&g))
        .collect();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn shards_split_a_run_into_exactly_its_programs() {
    let whole: Vec<u64> = Shard::WHOLE.programs(10).collect();
    assert_eq!(whole, (0..10).collect::<Vec<_>>());
    let mut parts: Vec<u64> = (0..3)
        .flat_map(|i| Shard { index: i, of: 3 }.programs(10).collect::<Vec<_>>())
        .collect();
    parts.sort_unstable();
    assert_eq!(parts, whole);
    assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, of: 4 }));
    for bad in ["4/4", "1", "a/2", "0/0", "-1/2", "1/2/3"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
}

/// What the first `n` programs of a seed use and give.
struct Coverage {
    valid: usize,
    statements: BTreeSet<String>,
    features: BTreeSet<String>,
    outcomes: BTreeSet<String>,
}

fn coverage(n: u64, table: &Functions) -> Coverage {
    let mut c = Coverage {
        valid: 0,
        statements: BTreeSet::new(),
        features: BTreeSet::new(),
        outcomes: BTreeSet::new(),
    };
    let offered = pack_functions(table, &[]);
    for k in 0..n {
        let Some(g) = generate(11, k, table, &offered) else {
            continue;
        };
        c.valid += 1;
        c.features.extend(g.body.needs.iter().cloned());
        for o in &g.body.oracle {
            c.outcomes.insert(match o {
                Outcome::Value(_) => "value".into(),
                Outcome::Error { code, .. } => code.clone(),
            });
        }
        let mut todo: Vec<&isu_plugin_api::Block> = vec![&g.body.program.body];
        while let Some(b) = todo.pop() {
            for s in &b.steps {
                let kind = match &s.node {
                    Node::Loop { iter, .. } => match iter {
                        isu_plugin_api::Iter::Range { step: None, .. } => "LOOP range",
                        isu_plugin_api::Iter::Range { .. } => "LOOP range step",
                        isu_plugin_api::Iter::Each { .. } => "LOOP each",
                        isu_plugin_api::Iter::While { .. } => "LOOP while",
                    },
                    Node::Assign {
                        target: isu_plugin_api::Place::Index { base, .. },
                        ..
                    } if matches!(**base, isu_plugin_api::Place::Index { .. }) => {
                        "ASSIGN nested element"
                    }
                    Node::Assign {
                        target: isu_plugin_api::Place::Index { .. },
                        ..
                    } => "ASSIGN element",
                    Node::Assign {
                        target: isu_plugin_api::Place::Field { .. },
                        ..
                    } => "ASSIGN field",
                    n => n.keyword(),
                };
                c.statements.insert(kind.to_owned());
                todo.extend(s.node.blocks());
            }
        }
    }
    c
}

#[test]
fn programs_are_valid_and_use_every_statement_function_type_and_error() {
    let mut table = Functions::default();
    table.add_local(Arc::new(Shapes));
    let c = coverage(1000, &table);
    assert!(c.valid >= 950, "only {} of 1000 programs validate", c.valid);
    let statements = [
        "SEQ",
        "ASSIGN",
        "ASSIGN element",
        "ASSIGN nested element",
        "ASSIGN field",
        "IF",
        "LOOP range",
        "LOOP range step",
        "LOOP each",
        "LOOP while",
        "RETURN",
        "BREAK",
        "CONTINUE",
    ];
    for s in statements {
        assert!(c.statements.contains(s), "no {s} in {:?}", c.statements);
    }
    let mut wanted: Vec<String> = STDLIB.iter().map(|f| format!("call:{}", f.name)).collect();
    wanted.extend(table.iter().map(|f| format!("call:{}", f.name)));
    wanted.extend(["int", "float", "bool", "string", "array", "map", "struct"].map(String::from));
    wanted.extend(["loop_exit", "list", "if_expr", "string_index"].map(String::from));
    for f in wanted {
        assert!(c.features.contains(&f), "no {f} in {:?}", c.features);
    }
    for code in [
        "value",
        "int_overflow",
        "division_by_zero",
        "index_out_of_range",
        "missing_key",
        "empty_collection",
        "negative_count",
        "parse_int_failed",
        "empty_separator",
        "float_not_finite",
        "out_of_domain",
        "invalid_number",
        "uninitialized_read",
        "step_limit",
        "size_limit",
        "memory_limit",
    ] {
        assert!(c.outcomes.contains(code), "no {code} in {:?}", c.outcomes);
    }
}

#[test]
fn a_difference_is_found_shrunk_and_written_as_a_case_that_shows_it() {
    let table = Functions::default();
    let target = Target::new("absbug", Arc::new(AbsBug));
    let plan = Plan {
        seed: 5,
        count: 150,
        shard: Shard::WHOLE,
        jobs: 2,
        shrink_tries: 300,
        shrink_most: 100,
    };
    let report = run(&plan, std::slice::from_ref(&target), &table, &mut |_| {});
    assert!(!report.ok());
    let t = &report.targets[0];
    assert_eq!(t.failed as usize, report.findings.len());
    assert!(t.passed > 0 && t.failed > 0, "{}", report.summary());
    for f in &report.findings {
        // The case reads back, and the interpreter gives what it says.
        let file = cases::parse(&f.case).unwrap();
        assert_eq!(file.runs.len(), 1, "{}", f.case);
        let case = conformance::Case {
            name: "found".into(),
            path: "found.isu".into(),
            text: f.case.clone(),
        };
        let prepared = conformance::prepare(
            std::slice::from_ref(&case),
            &table,
            &conformance::Options { jobs: 1 },
        );
        let interp = conformance::interpreter_report(&prepared);
        assert_eq!(interp.passed, 1, "{:?}\n{}", interp.failures, f.case);
        // The backend still gets it wrong, and the program is small.
        let executor = target.executor(&table);
        let on_backend = conformance::backend_report(
            &prepared,
            &executor,
            &target.features,
            &Default::default(),
        );
        assert_eq!(on_backend.failed, 1, "{}", f.case);
        let body = f.case.split("STEPS:").nth(1).unwrap();
        let steps = body.matches(": ASSIGN").count()
            + body.matches(": IF").count()
            + body.matches(": LOOP").count()
            + body.matches(": RETURN").count();
        assert!(steps <= 2, "not shrunk:\n{}", f.case);
        assert!(f.expected.starts_with('-'), "{}", f.expected);
    }
}

#[test]
fn programs_call_only_the_pack_functions_every_target_lowers() {
    let mut table = Functions::default();
    table.add_local(Arc::new(Shapes));
    table.add_local(Arc::new(isu_packs::math::MATH));
    let names = |targets: &[Target]| -> Vec<String> {
        pack_functions(&table, targets)
            .into_iter()
            .map(|f| f.name)
            .collect()
    };
    // `shapes` lowers for no target, `math` for python, wasm and llvm.
    assert_eq!(
        names(&[]).len(),
        3 + isu_packs::math::MATH.info().functions.len()
    );
    let python = Target::new("python", Arc::new(AbsBug));
    let absbug = Target::new("absbug", Arc::new(AbsBug));
    let with_python = names(std::slice::from_ref(&python));
    assert!(
        with_python.iter().all(|n| n.starts_with("math.")),
        "{with_python:?}"
    );
    assert!(
        with_python.contains(&"math.GCD".to_owned()),
        "{with_python:?}"
    );
    assert!(names(&[python, absbug]).is_empty());
}

#[test]
fn merging_takes_every_shard_of_one_run_once() {
    let shard = |index: u64, seed: u64, programs: u64| Report {
        seed,
        count: 5,
        shard: Shard { index, of: 2 }.to_string(),
        programs,
        targets: vec![TargetReport {
            target: "t".into(),
            compared: programs,
            passed: programs,
            seconds: 1.5,
            ..TargetReport::default()
        }],
        seconds: 2.0 + index as f64,
        ..Report::default()
    };
    let named = |r: Report| (format!("shard {}", r.shard), r);
    let whole = merge::merge(&[named(shard(1, 3, 2)), named(shard(0, 3, 3))]).unwrap();
    assert_eq!((whole.programs, whole.shard.as_str()), (5, "0/1"));
    assert_eq!(whole.targets[0].compared, 5);
    assert_eq!(whole.targets[0].seconds, 3.0);
    assert_eq!(whole.seconds, 3.0);
    let err = |parts: &[(String, Report)]| merge::merge(parts).unwrap_err();
    assert!(err(&[named(shard(0, 3, 3)), named(shard(1, 4, 2))]).contains("shards of one run only"));
    assert!(err(&[named(shard(0, 3, 3)), named(shard(0, 3, 3))]).contains("are both shard 0/2"));
    assert!(err(&[named(shard(0, 3, 3)), named(shard(1, 3, 1))]).contains("stopped early"));
    assert!(err(&[named(shard(0, 3, 3))]).contains("shard 1/2 missing"));
    assert!(err(&[]).contains("no reports"));
}
