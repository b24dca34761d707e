//! Paths: missing RETURN, unreachable steps, reads of unassigned variables.

use super::build::Prog;
use crate::diag::Severity;

#[test]
fn steps_without_a_return_are_missing_one() {
    let p = Prog::new("int").local("n", "int");
    let steps = vec![p.assign("n", "(const 1)")];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "missing_return");
    assert_eq!(
        d.message,
        "the function can reach the end of STEPS without a RETURN: S1 (ASSIGN) is the last step of STEPS, and no RETURN follows it"
    );
    assert_eq!(d.step.as_ref().map(|s| s.as_str()), Some("S1"));
    assert_eq!(c.at(d), "ASSIGN");
    assert!(d.hint.as_deref().unwrap_or("").contains("INSERT_AFTER S1"));
}

#[test]
fn empty_steps_are_missing_a_return() {
    let c = Prog::new("int").check(vec![]);
    let d = c.one();
    assert_eq!(d.code.as_str(), "missing_return");
    assert!(d.message.ends_with("STEPS is empty"), "{}", d.message);
    assert_eq!(d.step, None);
}

#[test]
fn an_if_returning_in_one_branch_only_is_missing_a_return() {
    let p = Prog::new("int").arg("n", "int");
    let steps = vec![p.if_("(gt (var n) (const 0))", vec![p.ret("(var n)")], vec![])];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "missing_return");
    assert!(
        d.message
            .ends_with("S1 (IF) can take its ELSE branch, where the ELSE of S1 is empty"),
        "{}",
        d.message
    );
    assert_eq!(c.at(d), "BLOCK", "points at the empty ELSE block");
    assert!(d
        .hint
        .as_deref()
        .unwrap_or("")
        .starts_with("end that path with a RETURN: put one in the ELSE of S1"));
    let p = Prog::new("int").arg("n", "int").local("m", "int");
    let steps = vec![p.if_(
        "(gt (var n) (const 0))",
        vec![p.assign("m", "(var n)")],
        vec![p.ret("(var n)")],
    )];
    let c = p.check(steps);
    let d = c.one();
    assert!(d.message.ends_with("S1 (IF) can take its THEN branch, where S1_1 (ASSIGN) is the last step of the THEN of S1, and no RETURN follows it"), "{}", d.message);
    assert_eq!(d.step.as_ref().map(|s| s.as_str()), Some("S1_1"));
}

#[test]
fn returning_on_every_path_is_enough() {
    let p = Prog::new("int").arg("n", "int");
    let steps = vec![p.seq(vec![p.if_(
        "(gt (var n) (const 0))",
        vec![p.ret("(var n)")],
        vec![p.ret("(neg (var n))")],
    )])];
    p.check(steps).assert_clean();
}

#[test]
fn a_loop_may_run_zero_times_but_while_true_never_ends() {
    let p = Prog::new("int").local("i", "int");
    let steps = vec![p.range("i", "(const 0)", "(const 3)", None, vec![p.ret("(var i)")])];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["missing_return"]);
    assert!(c
        .one()
        .message
        .contains("S1 (LOOP), the last step of STEPS, can finish"));
    let p = Prog::new("int").local("i", "int");
    let steps = vec![p.while_(
        "(const true)",
        vec![p.assign("i", "(const 1)"), p.ret("(var i)")],
    )];
    p.check(steps).assert_clean();
    let p = Prog::new("int").local("i", "int");
    let steps = vec![p.while_("(const false)", vec![p.ret("(const 1)")])];
    assert_eq!(p.check(steps).codes(), ["missing_return"]);
}

#[test]
fn steps_after_a_return_are_unreachable() {
    let p = Prog::new("int").local("n", "int");
    let steps = vec![
        p.ret("(const 1)"),
        p.assign("n", "(const 2)"),
        p.ret("(var n)"),
    ];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "unreachable_step");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.message, "steps S2, S3 never run: S1 before them returns");
    assert_eq!(d.step.as_ref().map(|s| s.as_str()), Some("S2"));
    assert!(
        c.at(d).starts_with("ASSIGN") && c.at(d).ends_with("RETURN"),
        "covers S2 to S3"
    );
    assert_eq!(c.labels(d), ["RETURN"]);
}

#[test]
fn steps_after_a_returning_if_or_an_endless_loop_are_unreachable() {
    let p = Prog::new("int").arg("n", "int");
    let steps = vec![
        p.if_(
            "(gt (var n) (const 0))",
            vec![p.ret("(const 1)")],
            vec![p.ret("(const 2)")],
        ),
        p.ret("(const 3)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["unreachable_step"]);
    assert!(
        c.one()
            .message
            .starts_with("step S2 never runs: every path through S1"),
        "{}",
        c.one().message
    );
    let p = Prog::new("int");
    let steps = vec![
        p.while_("(const true)", vec![p.ret("(const 1)")]),
        p.ret("(const 2)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["unreachable_step"]);
    assert!(
        c.one().message.contains("(while (const true)) loop"),
        "{}",
        c.one().message
    );
}

#[test]
fn unreachable_steps_inside_a_block_are_found() {
    let p = Prog::new("int").arg("n", "int");
    let steps = vec![
        p.if_(
            "(gt (var n) (const 0))",
            vec![p.ret("(const 1)"), p.ret("(const 2)")],
            vec![],
        ),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["unreachable_step"]);
    assert_eq!(c.one().step.as_ref().map(|s| s.as_str()), Some("S1_2"));
}

#[test]
fn a_local_read_before_any_assignment_is_an_error() {
    let p = Prog::new("int").local("x", "int");
    let steps = vec![p.ret("(add (var x) (var x))")];
    let c = p.check(steps);
    let d = c.one();
    assert_eq!(d.code.as_str(), "unassigned_variable");
    assert_eq!(c.at(d), "(var x)");
    assert_eq!(d.step.as_ref().map(|s| s.as_str()), Some("S1"));
    assert!(d
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("STATE: [x: int = (const ...)]"));
    assert_eq!(c.labels(d), ["x"]);
}

#[test]
fn a_read_that_some_path_may_have_assigned_is_left_to_run_time() {
    let p = Prog::new("int").arg("n", "int").local("x", "int");
    let steps = vec![
        p.if_(
            "(gt (var n) (const 0))",
            vec![p.assign("x", "(const 1)")],
            vec![],
        ),
        p.ret("(var x)"),
    ];
    p.check(steps).assert_clean();
}

#[test]
fn a_loop_body_sees_what_earlier_rounds_assign() {
    let p = Prog::new("int")
        .arg("xs", "int[]")
        .local("prev", "int")
        .local("x", "int")
        .local("first", "bool");
    let steps = vec![
        p.assign("first", "(const true)"),
        p.each(
            "x",
            "(var xs)",
            vec![
                p.if_(
                    "(var first)",
                    vec![p.assign("first", "(const false)")],
                    vec![p.assign("x", "(add (var x) (var prev))")],
                ),
                p.assign("prev", "(var x)"),
            ],
        ),
        p.ret("(var x)"),
    ];
    p.check(steps).assert_clean();
}

#[test]
fn a_while_condition_is_first_read_before_the_body_runs() {
    let p = Prog::new("int").local("done", "bool");
    let steps = vec![
        p.while_("(not (var done))", vec![p.assign("done", "(const true)")]),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["unassigned_variable"]);
    assert_eq!(c.one().step.as_ref().map(|s| s.as_str()), Some("S1"));
}

#[test]
fn updating_an_element_reads_the_variable() {
    let p = Prog::new("int").local("m", "map<string,int>");
    let steps = vec![
        p.assign("(index m (const \"a\"))", "(const 1)"),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(c.codes(), ["unassigned_variable"]);
    assert_eq!(c.at(c.one()), "m");
}

#[test]
fn a_loop_variable_is_assigned_in_the_body_and_maybe_after() {
    let p = Prog::new("int").local("i", "int").local("s", "int");
    let steps = vec![
        p.assign("s", "(const 0)"),
        p.range(
            "i",
            "(const 0)",
            "(const 3)",
            None,
            vec![p.assign("s", "(add (var s) (var i))")],
        ),
        p.ret("(add (var s) (var i))"),
    ];
    p.check(steps).assert_clean();
    let p = Prog::new("int").local("x", "int");
    let steps = vec![
        p.each("x", "(call PUSH (const []) (var x))", vec![]),
        p.ret("(const 0)"),
    ];
    let c = p.check(steps);
    assert_eq!(
        c.codes(),
        ["unassigned_variable"],
        "the array is read before the loop assigns x"
    );
}

#[test]
fn unreachable_reads_are_not_reported() {
    let p = Prog::new("int").local("x", "int");
    let steps = vec![p.ret("(const 0)"), p.ret("(var x)")];
    assert_eq!(p.check(steps).codes(), ["unreachable_step"]);
}
