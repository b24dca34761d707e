//! What a failing run did, for its hints: a sink for the run's trace (the
//! JSONL events of [`super::trace`], documented in `spec/semantics.md`) that
//! keeps the loop rounds in progress and the values some variables took.
//!
//! A failing IO example or runtime error is run once more with this sink (runs
//! are deterministic), in the spirit of a debugger's block-level trace: for a
//! `test_mismatch`, the values the returned variable took at the end of each
//! step that changed it; for a runtime error, the loop rounds it happened in.

use super::compile::Compiled;
use super::{bind_args, execute, RunOptions};
use crate::diag::{Code, Diagnostic, LoopRound, ValueChange};
use isu_lang::RuntimeCode;
use isu_plugin_api::{Literal, StepId};
use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::io::{self, Write};

/// How many changes of the watched variables a history keeps (the last ones).
pub const MAX_CHANGES: usize = 20;

/// The sink: watched variables, their current values, their last changes,
/// and the loops in progress.
#[derive(Debug, Default)]
struct Recorder {
    watch: BTreeSet<String>,
    /// The current value of each watched variable, when it is known whole.
    values: BTreeMap<String, Json>,
    changes: VecDeque<ValueChange>,
    /// How many changes there were in all.
    total: usize,
    /// The watched variables some step changed.
    changed_vars: BTreeSet<String>,
    loops: Vec<LoopRound>,
    /// The part of a line not yet ended.
    partial: Vec<u8>,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            self.partial.extend_from_slice(&rest[..nl]);
            let line = std::mem::take(&mut self.partial);
            if let Ok(event) = serde_json::from_slice::<Json>(&line) {
                self.event(&event);
            }
            rest = &rest[nl + 1..];
        }
        self.partial.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Recorder {
    fn event(&mut self, e: &Json) {
        let text = |k: &str| e.get(k).and_then(Json::as_str);
        let (Some(kind), step) = (text("kind"), text("step")) else {
            return;
        };
        match kind {
            "STATE" => {
                if let (Some(var), Some(value)) = (text("var"), e.get("value")) {
                    if self.watch.contains(var) {
                        self.values.insert(var.to_owned(), value.clone());
                    }
                }
            }
            "LOOP" => {
                let Some(step) = step else { return };
                let at = self.loops.iter().position(|l| l.step == step);
                if e.get("exit").is_some() {
                    if let Some(at) = at {
                        self.loops.truncate(at);
                    }
                    return;
                }
                let round = LoopRound {
                    step: step.to_owned(),
                    round: e.get("round").and_then(Json::as_u64).unwrap_or(0),
                    var: text("var").map(str::to_owned),
                    value: e.get("value").cloned(),
                };
                match at {
                    Some(at) => {
                        self.loops.truncate(at);
                        self.loops.push(round.clone());
                    }
                    None => self.loops.push(round.clone()),
                }
                if let (Some(var), Some(value)) = (round.var, round.value) {
                    self.changed(step, &var, &[], value);
                }
            }
            "ASSIGN" => {
                let (Some(step), Some(var), Some(value)) = (step, text("var"), e.get("value"))
                else {
                    return;
                };
                let index: Vec<Json> = e
                    .get("index")
                    .and_then(Json::as_array)
                    .cloned()
                    .unwrap_or_default();
                self.changed(step, var, &index, value.clone());
            }
            _ => {}
        }
    }

    /// `var` (or its element at `index`) became `value` at the end of `step`.
    fn changed(&mut self, step: &str, var: &str, index: &[Json], value: Json) {
        if !self.watch.contains(var) {
            return;
        }
        self.changed_vars.insert(var.to_owned());
        let whole = if index.is_empty() {
            Some(value.clone())
        } else {
            self.values
                .get(var)
                .cloned()
                .and_then(|mut v| set_at(&mut v, index, value.clone()).then_some(v))
        };
        let change = match whole {
            Some(v) => {
                self.values.insert(var.to_owned(), v.clone());
                ValueChange {
                    step: step.to_owned(),
                    var: var.to_owned(),
                    index: Vec::new(),
                    value: v,
                    round: self.loops.last().cloned(),
                }
            }
            None => {
                // Only part of the value is known: keep the element.
                self.values.remove(var);
                ValueChange {
                    step: step.to_owned(),
                    var: var.to_owned(),
                    index: index.to_vec(),
                    value,
                    round: self.loops.last().cloned(),
                }
            }
        };
        self.total += 1;
        if self.changes.len() == MAX_CHANGES {
            self.changes.pop_front();
        }
        self.changes.push_back(change);
    }
}

/// Sets the element of `v` at the path `index` (array positions, map keys)
/// to `value`; `false` when the path is not in `v` (it was cut short).
fn set_at(v: &mut Json, index: &[Json], value: Json) -> bool {
    let Some((first, rest)) = index.split_first() else {
        *v = value;
        return true;
    };
    let slot = match (v, first) {
        (Json::Array(items), Json::Number(n)) => n
            .as_u64()
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| items.get_mut(i)),
        (Json::Object(map), key) => {
            let key = match key {
                Json::String(s) => s.clone(),
                other => other.to_string(),
            };
            // A new key is an insertion, unless the map was cut short.
            if !map.contains_key(&key) && rest.is_empty() && !map.keys().any(|k| k.starts_with('…'))
            {
                map.insert(key.clone(), Json::Null);
            }
            map.get_mut(&key)
        }
        _ => None,
    };
    match slot {
        Some(s) => set_at(s, rest, value),
        None => false,
    }
}

/// Runs `args` (an INPUT object) again, recording `watch` from the start.
fn rerun(compiled: &Compiled, args: &Literal, opts: &RunOptions, watch: &[String]) -> Recorder {
    let mut rec = Recorder {
        watch: watch.iter().cloned().collect(),
        ..Recorder::default()
    };
    let Literal::Object(entries) = args else {
        return rec;
    };
    for (k, v) in entries {
        if rec.watch.contains(k) {
            rec.values
                .insert(k.clone(), serde_json::to_value(v).unwrap_or(Json::Null));
        }
    }
    let bound = bind_args(
        compiled,
        entries.iter().map(|(k, v)| (k.as_str(), Ok(v.clone()))),
    );
    if let Ok(bound) = bound {
        let _ = execute(compiled, bound, opts, Some(&mut rec as &mut dyn Write));
    }
    rec
}

/// What explains a `test_mismatch`: the variables the RETURN at `ret` reads,
/// and their values after each step that changed them (the last
/// [`MAX_CHANGES`]), with a hint that names the last change.
pub(super) fn explain_mismatch(
    compiled: &Compiled,
    args: &Literal,
    opts: &RunOptions,
    ret: &StepId,
    d: &mut Diagnostic,
) {
    let Some(info) = compiled.steps.iter().find(|s| &s.id == ret) else {
        return;
    };
    let watch: Vec<String> = info
        .reads
        .iter()
        .map(|&s| compiled.vars[s as usize].name.clone())
        .collect();
    if watch.is_empty() {
        d.hint = Some(format!(
            "{ret} returns a value that reads no variable: check its EXPR"
        ));
        return;
    }
    let rec = rerun(compiled, args, opts, &watch);
    let names = watch.join(", ");
    // What the trace shows of the variables no step changed.
    let kept: Vec<String> = watch
        .iter()
        .filter(|w| !rec.changed_vars.contains(*w))
        .map(|w| unchanged(compiled, &rec, w))
        .collect();
    d.hint = Some(match rec.changes.back() {
        None => format!(
            "{ret} returns {names}, which no step changed: {}",
            kept.join("; ")
        ),
        Some(last) => {
            let kept_text = if rec.total > rec.changes.len() {
                format!("the last {} of {} changes", rec.changes.len(), rec.total)
            } else {
                format!("all {} changes", rec.total)
            };
            let mut hint = format!(
                "{ret} returns {names}; {} was last changed by {}{}: `history` holds {kept_text}, the value after each step that changed it",
                last.var,
                last.step,
                round_text(last.round.as_ref()),
            );
            if !kept.is_empty() {
                hint.push_str("; no step changed the others: ");
                hint.push_str(&kept.join("; "));
            }
            hint
        }
    });
    d.history = rec.changes.into_iter().collect();
}

/// A watched variable no step changed, as the trace shows it: an argument
/// as given, or a STATE variable still holding its initial value (quoted).
fn unchanged(compiled: &Compiled, rec: &Recorder, var: &str) -> String {
    let slot = compiled.vars.iter().position(|v| v.name == var);
    if slot.is_some_and(|s| s < compiled.n_args) {
        return format!("{var} is the argument as given");
    }
    let is_state = slot.is_some_and(|s| compiled.state.iter().any(|st| st.slot as usize == s));
    match (is_state, rec.values.get(var)) {
        (true, Some(v)) => format!("{var} still holds its STATE initial value {v}"),
        (true, None) => format!("{var} still holds its STATE initial value"),
        _ => format!("{var} was not changed by any step"),
    }
}

/// What explains a runtime error of `args`: the loop rounds in progress when
/// it happened (outermost first), added to its hint.
pub(super) fn explain_error(
    compiled: &Compiled,
    args: &Literal,
    opts: &RunOptions,
    d: &mut Diagnostic,
) {
    if matches!(
        d.code,
        Code::Runtime(
            RuntimeCode::StepLimit
                | RuntimeCode::InvalidArgument
                | RuntimeCode::TraceWriteFailed
                | RuntimeCode::InternalError
        )
    ) {
        return;
    }
    let step = d.step.clone();
    let (watch, only_arguments) = arguments_read(compiled, step.as_ref());
    let rec = rerun(compiled, args, opts, &watch);
    let mut found = Vec::new();
    if !rec.loops.is_empty() {
        let rounds: Vec<String> = rec.loops.iter().map(|l| round_text(Some(l))).collect();
        found.push(format!("it happened{}", rounds.join(",")));
    }
    if let Some(step) = &step {
        found.extend(input_cause(d.code, step, &rec, &watch, only_arguments));
    }
    if found.is_empty() {
        return;
    }
    let context = found.join("; ");
    d.hint = Some(match d.hint.take() {
        Some(h) => format!("{h}; {context}"),
        None => context,
    });
    d.rounds = rec.loops;
}

/// The arguments the step `step` reads, by name, and whether it reads
/// nothing else.
fn arguments_read(compiled: &Compiled, step: Option<&StepId>) -> (Vec<String>, bool) {
    let Some(info) = step.and_then(|id| compiled.steps.iter().find(|s| &s.id == id)) else {
        return (Vec::new(), false);
    };
    let args: Vec<String> = info
        .reads
        .iter()
        .filter(|&&slot| (slot as usize) < compiled.n_args)
        .map(|&slot| compiled.vars[slot as usize].name.clone())
        .collect();
    let only = args.len() == info.reads.len();
    (args, only)
}

/// When what the failing step reads comes from the input as given, the
/// input alone causes the error: which arguments, with their values, and
/// where a guard goes. The trace shows it when the step reads only
/// arguments that no step changed (`only_arguments`), or, for a division by
/// zero, when an argument it reads is 0 as given (the divisor can be no
/// other value).
fn input_cause(
    code: Code,
    step: &StepId,
    rec: &Recorder,
    read: &[String],
    only_arguments: bool,
) -> Option<String> {
    let zero = Json::from(0);
    let divisor = matches!(code, Code::Runtime(RuntimeCode::DivisionByZero));
    let unchanged = read.iter().all(|a| !rec.changed_vars.contains(a));
    if !(divisor || only_arguments && unchanged) {
        return None;
    }
    let given: Vec<String> = read
        .iter()
        .filter(|a| !rec.changed_vars.contains(*a))
        .filter_map(|a| {
            let value = rec.values.get(a)?;
            (!divisor || *value == zero).then(|| format!("{a} = {}", clipped(value)))
        })
        .collect();
    if given.is_empty() {
        return None;
    }
    let (noun, them) = if given.len() == 1 {
        ("the argument", "it")
    } else {
        ("the arguments", "them")
    };
    Some(format!(
        "{step} reads {noun} {} as given, so an input like this one causes the error: test {them} before {step} (with an IF) and do what the task asks for such inputs",
        given.join(", ")
    ))
}

/// A value in a hint, cut to 40 characters.
fn clipped(value: &Json) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        return text;
    }
    let cut: String = text.chars().take(37).collect();
    format!("{cut}...")
}

/// ` in round 3 of S1 (x = 5)`, or nothing.
fn round_text(round: Option<&LoopRound>) -> String {
    let Some(r) = round else {
        return String::new();
    };
    match (&r.var, &r.value) {
        (Some(var), Some(value)) => {
            format!(" in round {} of {} ({var} = {value})", r.round, r.step)
        }
        _ => format!(" in round {} of {}", r.round, r.step),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{pipeline, Source};
    use serde_json::json;

    fn checked(text: &str) -> isu_plugin_api::Program {
        let fe = pipeline::check(&Source::new("t.isu", text));
        match fe.valid_program() {
            Some(p) => p.clone(),
            None => panic!("{:#?}", fe.diags),
        }
    }

    const DIVIDE: &str = "FUNC:\n  NAME: f\n  ARGS: [xs: int[]]\n  RETURNS: int\nIO:\n  INPUT: [{\"xs\": [2, 5, 0]}, {\"xs\": [1, 2]}]\n  OUTPUT: [0, 49]\nSTATE: [total: int = (const 100)]\nLOCAL: [x: int]\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP\n      ITER: (each x (var xs))\n      BODY: BEGIN\n        S1_1: ASSIGN\n          TARGET: total\n          EXPR: (div (var total) (var x))\n      END\n    S2: RETURN\n      EXPR: (var total)\n  END\n";

    #[test]
    fn a_mismatch_shows_the_returned_variable_after_each_change() {
        let fails = crate::executor::test_on_interpreter(
            &checked(DIVIDE),
            &isu_plugin_api::ExecLimits::DEFAULT,
            &crate::functions::Functions::default(),
        );
        let d = &fails[1];
        assert_eq!(d.code, Code::TestMismatch);
        assert_eq!(
            d.hint.as_deref(),
            Some("S2 returns total; total was last changed by S1_1 in round 2 of S1 (x = 2): `history` holds all 2 changes, the value after each step that changed it")
        );
        let values: Vec<(&str, Json)> = d
            .history
            .iter()
            .map(|c| (c.step.as_str(), c.value.clone()))
            .collect();
        assert_eq!(values, [("S1_1", json!(100)), ("S1_1", json!(50))]);
    }

    #[test]
    fn a_mismatch_names_arguments_and_state_initial_values_no_step_changed() {
        // A wrong initial value: the hint quotes it and says no step changed
        // it; the argument is named as such; nothing is said of a cause.
        let text = "FUNC:\n  NAME: f\n  ARGS: [n: int]\n  RETURNS: int\nIO:\n  INPUT: [{\"n\": 2}]\n  OUTPUT: [2]\nSTATE: [base: int = (const 1)]\nLOCAL: []\nSTEPS:\n  SEQ: BEGIN\n    S1: RETURN\n      EXPR: (add (var base) (var n))\n  END\n";
        let fails = crate::executor::test_on_interpreter(
            &checked(text),
            &isu_plugin_api::ExecLimits::DEFAULT,
            &crate::functions::Functions::default(),
        );
        assert_eq!(
            fails[0].hint.as_deref(),
            Some("S1 returns base, n, which no step changed: base still holds its STATE initial value 1; n is the argument as given")
        );
    }

    #[test]
    fn a_runtime_error_from_the_input_as_given_says_so() {
        // A divisor and a SLICE bound that are arguments as given: the hint
        // names them with their values and where a guard goes. A bound some
        // step computed is not blamed on the input.
        let program = |ret: &str| {
            format!("FUNC:\n  NAME: f\n  ARGS: [xs: int[], k: int]\n  RETURNS: int[]\nIO:\n  INPUT: [{{\"xs\": [4, 6], \"k\": 0}}, {{\"xs\": [4, 6], \"k\": 3}}]\n  OUTPUT: [[], []]\nSTATE: [t: int = (const 0)]\nLOCAL: [x: int]\nSTEPS:\n  SEQ: BEGIN\n    S1: LOOP\n      ITER: (each x (var xs))\n      BODY: BEGIN\n        S1_1: ASSIGN\n          TARGET: t\n          EXPR: (add (var t) (div (var x) (var k)))\n      END\n    S2: RETURN\n      EXPR: (call SLICE (var xs) (const 0) {ret})\n  END\n")
        };
        let hints = |text: &str| -> Vec<String> {
            crate::executor::test_on_interpreter(
                &checked(text),
                &isu_plugin_api::ExecLimits::DEFAULT,
                &crate::functions::Functions::default(),
            )
            .into_iter()
            .map(|d| d.hint.unwrap_or_default())
            .collect()
        };
        let by_argument = hints(&program("(var k)"));
        assert_eq!(
            by_argument,
            [
                "it happened in round 1 of S1 (x = 4); S1_1 reads the argument k = 0 as given, so an input like this one causes the error: test it before S1_1 (with an IF) and do what the task asks for such inputs",
                "S2 reads the arguments xs = [4,6], k = 3 as given, so an input like this one causes the error: test them before S2 (with an IF) and do what the task asks for such inputs",
            ]
        );
        // t = 4/3 + 6/3 = 3 is computed: nothing is said of the input.
        let computed = hints(&program("(var t)"));
        assert_eq!(computed.len(), 2);
        assert!(!computed[1].contains("as given"), "{computed:?}");
    }

    #[test]
    fn a_runtime_error_names_its_loop_round_and_what_it_read() {
        let fails = crate::executor::test_on_interpreter(
            &checked(DIVIDE),
            &isu_plugin_api::ExecLimits::DEFAULT,
            &crate::functions::Functions::default(),
        );
        let d = &fails[0];
        assert_eq!(d.code, Code::TestError);
        assert_eq!(
            d.hint.as_deref(),
            Some("it happened in round 3 of S1 (x = 0)")
        );
        assert_eq!(d.rounds.len(), 1);
        let vars: Vec<(&str, Json)> = d
            .vars
            .iter()
            .map(|v| (v.name.as_str(), v.value.clone()))
            .collect();
        assert_eq!(vars, [("total", json!(10)), ("x", json!(0))]);
        // `isu run` says the same.
        let e = crate::interp::run(
            &checked(DIVIDE),
            &json!({"xs": [4, 0]}),
            &RunOptions::default(),
            None,
        );
        let hint = e.err().and_then(|d| d.hint);
        assert_eq!(
            hint.as_deref(),
            Some("it happened in round 2 of S1 (x = 0)")
        );
    }

    fn feed(rec: &mut Recorder, lines: &[Json]) {
        for l in lines {
            let mut text = l.to_string();
            text.push('\n');
            // Written in two pieces, as a buffered writer may.
            let (a, b) = text.as_bytes().split_at(text.len() / 2);
            let _ = rec.write(a);
            let _ = rec.write(b);
        }
    }

    #[test]
    fn element_assignments_rebuild_the_whole_value() {
        let mut rec = Recorder {
            watch: ["m".to_owned(), "xs".to_owned()].into_iter().collect(),
            ..Recorder::default()
        };
        feed(
            &mut rec,
            &[
                json!({"kind": "STATE", "var": "m", "value": {}}),
                json!({"kind": "STATE", "var": "xs", "value": [1, 2]}),
                json!({"step": "S1", "kind": "LOOP", "round": 1, "var": "w", "value": "a"}),
                json!({"step": "S1_1", "kind": "ASSIGN", "var": "m", "index": ["a"], "value": 1}),
                json!({"step": "S1", "kind": "LOOP", "round": 2, "var": "w", "value": "b"}),
                json!({"step": "S1_1", "kind": "ASSIGN", "var": "m", "index": ["b"], "value": 1}),
                json!({"step": "S1", "kind": "LOOP", "exit": true, "rounds": 2}),
                json!({"step": "S2", "kind": "ASSIGN", "var": "xs", "index": [1], "value": 5}),
                json!({"step": "S3", "kind": "ASSIGN", "var": "other", "value": 0}),
            ],
        );
        let got: Vec<(String, Json, Option<u64>)> = rec
            .changes
            .iter()
            .map(|c| {
                (
                    c.step.clone(),
                    c.value.clone(),
                    c.round.as_ref().map(|r| r.round),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("S1_1".to_owned(), json!({"a": 1}), Some(1)),
                ("S1_1".to_owned(), json!({"a": 1, "b": 1}), Some(2)),
                ("S2".to_owned(), json!([1, 5]), None),
            ]
        );
        assert!(rec.loops.is_empty(), "the loop exited");
    }

    #[test]
    fn only_the_last_changes_are_kept() {
        let mut rec = Recorder {
            watch: ["n".to_owned()].into_iter().collect(),
            ..Recorder::default()
        };
        let events: Vec<Json> = (0..30)
            .map(|i| json!({"step": "S1", "kind": "ASSIGN", "var": "n", "value": i}))
            .collect();
        feed(&mut rec, &events);
        assert_eq!(rec.total, 30);
        assert_eq!(rec.changes.len(), MAX_CHANGES);
        assert_eq!(
            rec.changes.front().map(|c| c.value.clone()),
            Some(json!(10))
        );
    }

    #[test]
    fn a_value_cut_short_keeps_the_element() {
        let mut v = json!([1, 2, "… 3 more"]);
        assert!(!set_at(&mut v, &[json!(4)], json!(9)));
        let mut m = json!({"a": 1, "… 9 more": "…"});
        assert!(!set_at(&mut m, &[json!("zz")], json!(9)));
        let mut nested = json!({"k": [[0, 0]]});
        assert!(set_at(
            &mut nested,
            &[json!("k"), json!(0), json!(1)],
            json!(7)
        ));
        assert_eq!(nested, json!({"k": [[0, 7]]}));
    }
}
