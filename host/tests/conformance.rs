//! The conformance suite on the reference interpreter, through the one
//! runner (`isu_host::conformance`): every run of every case gives what its
//! `; run:` line says, and every case's IO examples hold. The backends run
//! the same suite in their own tests.

use isu_host::conformance::{self, Options};
use isu_host::executor::{self, Executor, Interpreter};
use isu_host::functions::Functions;

#[test]
fn every_case_passes_on_the_interpreter() {
    let cases = conformance::builtin_cases();
    assert!(!cases.is_empty(), "no cases built in");
    let packs = Functions::linked(isu_packs::SHIPPED);
    let prepared = conformance::prepare(&cases, &packs, &Options::default());
    let report = conformance::interpreter_report(&prepared);
    let failures: Vec<String> = report.failures.iter().map(ToString::to_string).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(report.passed, cases.len());

    let interpreter = Interpreter::new(packs);
    let mut io_failures = Vec::new();
    for p in &prepared {
        let Ok(body) = &p.body else { continue };
        let loaded = interpreter.load(&body.program);
        let loaded = loaded.unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let fails = executor::test_examples(
            loaded.as_ref(),
            executor::INTERPRETER,
            &body.program,
            &body.limits,
        )
        .unwrap_or_else(|f| panic!("{}: {f}", p.name));
        io_failures.extend(fails.iter().map(|d| format!("{}: {}", p.name, d.message)));
    }
    assert!(io_failures.is_empty(), "{}", io_failures.join("\n"));
}
