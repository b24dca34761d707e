//! Paths through a program: where the steps can end without a `RETURN`, which
//! steps can never run, and which reads of a variable can only find it without
//! a value.
//!
//! The analyses are the language's own (`isu_lang::analysis`): a step
//! *completes* when control can pass on to the next step
//! ([`flow`](isu_lang::analysis::flow)), and the `LOCAL`s that *may* hold a
//! value where a step starts come from
//! [`assigned`](isu_lang::analysis::assigned). A read of a `LOCAL` outside
//! that set finds it without a value on every path, which is certain to
//! fail, so it is a `StaticError`; a read that fails only on some paths is
//! left to the interpreter's `uninitialized_read`.

use super::scope::{Scope, Section};
use crate::diag::{Code, Diagnostic};
use isu_lang::analysis::assigned::Assigned;
use isu_lang::analysis::flow::{block_completes, completes, first_end};
use isu_lang::analysis::vars::{each_own_read, each_read};
use isu_plugin_api::{Block, Node, Program, Span, Step, StepId};
use std::collections::BTreeSet;

/// Runs the flow checks, adding to `diags`.
pub(super) fn check(program: &Program, scope: &Scope, diags: &mut Vec<Diagnostic>) {
    state_order(program, scope, diags);
    let mut flow = Flow {
        scope,
        may: Assigned::may(program),
        diags,
        reported: BTreeSet::new(),
    };
    flow.block(&program.body);
    if block_completes(&program.body) {
        missing_return(program, flow.diags);
    }
}

/// `STATE` initializers run in order before the steps: each may read `ARGS`
/// and earlier `STATE` variables only (`unassigned_variable` otherwise).
fn state_order(program: &Program, scope: &Scope, diags: &mut Vec<Diagnostic>) {
    for (i, sv) in program.state.iter().enumerate() {
        let owner = &sv.name.name;
        let mut seen = BTreeSet::new();
        each_read(&sv.init, &mut |name, span| {
            let Some(v) = scope.get(name) else {
                return;
            };
            let (message, hint) = match v.section {
                Section::Args => return,
                Section::State if v.index < i => return,
                Section::State if name == owner => (
                    format!("the initial value of STATE variable {owner} reads {owner} itself, which has no value yet"),
                    format!("an initializer may read ARGS and earlier STATE variables only; compute {owner} from those, or in a step"),
                ),
                Section::State => (
                    format!("the initial value of STATE variable {owner} reads {name}, which is initialized after {owner} (STATE variables are initialized in order)"),
                    format!("move {name} before {owner} in STATE, or assign {owner} in a step"),
                ),
                Section::Local => (
                    format!("the initial value of STATE variable {owner} reads the LOCAL variable {name}, which has no value before the steps run"),
                    format!("an initializer may read ARGS and earlier STATE variables only; declare {name} in STATE before {owner} with its own initial value, or assign {owner} in a step"),
                ),
            };
            if seen.insert(name.to_owned()) {
                diags.push(
                    Diagnostic::error(Code::UnassignedVariable, message)
                        .at(span)
                        .with_label(v.span, format!("{name} is declared here"))
                        .with_hint(hint),
                );
            }
        });
    }
}

struct Flow<'a> {
    scope: &'a Scope,
    may: Assigned,
    diags: &'a mut Vec<Diagnostic>,
    /// (step, variable) pairs already reported, so a step reading a variable
    /// twice gets one error.
    reported: BTreeSet<(Option<String>, String)>,
}

impl Flow<'_> {
    /// Checks the reads of a reachable block's steps, down to the first that
    /// never completes; the steps after it are reported as unreachable.
    fn block(&mut self, b: &Block) {
        let end = first_end(b).map_or(b.steps.len(), |i| i + 1);
        for s in &b.steps[..end] {
            self.step(s);
            for inner in s.node.blocks() {
                self.block(inner);
            }
        }
        if let Some(prev) = end.checked_sub(1).and_then(|p| b.steps.get(p)) {
            if !completes(prev) {
                unreachable(prev, &b.steps[end..], self.diags);
            }
        }
    }

    /// The reads of the step's own fields, where only the `LOCAL`s that may
    /// hold a value where it starts can have one.
    fn step(&mut self, s: &Step) {
        let Some(id) = s.id.as_ref() else {
            return;
        };
        let mut reads = Vec::new();
        each_own_read(s, &mut |name, span| reads.push((name, span)));
        for (name, span) in reads {
            self.read_var(name, span, id);
        }
    }

    /// A read of `name` in step `id`.
    fn read_var(&mut self, name: &str, span: Span, id: &StepId) {
        let Some(v) = self.scope.get(name) else {
            return;
        };
        if v.section != Section::Local || self.may.holds(id, name) {
            return;
        }
        if !self
            .reported
            .insert((Some(id.to_string()), name.to_owned()))
        {
            return;
        }
        let ty = v.ty.as_ref().map_or("TYPE".to_owned(), ToString::to_string);
        self.diags.push(
            Diagnostic::error(
                Code::UnassignedVariable,
                format!("{name} is read here, but no path to this point assigns it, so it never has a value here"),
            )
            .at(span)
            .in_step(Some(id))
            .with_label(v.span, format!("{name} is declared in LOCAL, without a value"))
            .with_hint(format!(
                "assign {name} in a step before this one, or declare it with an initial value instead: STATE: [{name}: {ty} = (const ...)]"
            )),
        );
    }
}

/// `unreachable_step` (a warning) for `dead`, the steps after `prev`, which never completes.
fn unreachable(prev: &Step, dead: &[Step], diags: &mut Vec<Diagnostic>) {
    let (Some(first), Some(last)) = (dead.first(), dead.last()) else {
        return;
    };
    let ids: Vec<String> = dead.iter().map(step_name).collect();
    let p = step_name(prev);
    let them = if dead.len() == 1 { "it" } else { "them" };
    let why = match &prev.node {
        Node::Return { .. } => format!("{p} before {them} returns"),
        Node::Break => format!("{p} before {them} leaves the loop (BREAK)"),
        Node::Continue => format!("{p} before {them} starts the loop's next round (CONTINUE)"),
        Node::Loop { .. } => {
            format!("{p} before {them} is a (while (const true)) loop without a BREAK, which only a RETURN leaves")
        }
        _ => format!(
            "every path through {p} before {them} ends in a RETURN or a loop that never ends"
        ),
    };
    let (subject, verb) = if ids.len() == 1 {
        (format!("step {}", ids[0]), "runs")
    } else {
        (format!("steps {}", ids.join(", ")), "run")
    };
    diags.push(
        Diagnostic::warning(
            Code::UnreachableStep,
            format!("{subject} never {verb}: {why}"),
        )
        .at(first.span.to(last.span))
        .in_step(first.id.as_ref())
        .with_label(prev.span, "control never gets past this step")
        .with_hint(format!(
            "delete the unreachable steps, or move them before {p} if they should run"
        )),
    );
}

fn step_name(s: &Step) -> String {
    match &s.id {
        Some(id) => id.to_string(),
        None => s.node.keyword().to_owned(),
    }
}

/// Where control falls off the end: the step (if any) and the span to point at.
struct FallOff<'a> {
    /// How control gets there, as a sentence: `S3 (IF) can take its ELSE branch, which is empty`.
    path: String,
    step: Option<&'a Step>,
    span: Span,
    /// The empty block control falls off, if it is one: `the ELSE of S3`.
    empty: Option<String>,
}

/// `missing_return`, with the path that reaches the end of STEPS.
fn missing_return(program: &Program, diags: &mut Vec<Diagnostic>) {
    let fall = fall_off(&program.body, "STEPS");
    let (hint, step_id) = match fall.step {
        Some(s) => {
            let id = step_name(s);
            let hint = match &fall.empty {
                Some(block) => format!(
                    "end that path with a RETURN: put one in {block} (PATCH: REPLACE {id}), or add one after {id} (PATCH: INSERT_AFTER {id})"
                ),
                None => format!(
                    "end that path with a RETURN: add one after {id} (PATCH: INSERT_AFTER {id}), or give the function a final RETURN at the end of STEPS"
                ),
            };
            (hint, s.id.as_ref())
        }
        None => ("add a RETURN step to STEPS".to_owned(), None),
    };
    diags.push(
        Diagnostic::error(
            Code::MissingReturn,
            format!(
                "the function can reach the end of STEPS without a RETURN: {}",
                fall.path
            ),
        )
        .at(fall.span)
        .in_step(step_id)
        .with_hint(hint),
    );
}

/// How control falls off the end of `b`, which completes; `what` names the block.
fn fall_off<'a>(b: &'a Block, what: &str) -> FallOff<'a> {
    let Some(last) = b.steps.last() else {
        return FallOff {
            path: format!("{what} is empty"),
            step: None,
            span: b.span,
            empty: Some(what.to_owned()),
        };
    };
    let name = step_name(last);
    let own = |path: String| FallOff {
        path,
        step: Some(last),
        span: last.span,
        empty: None,
    };
    match &last.node {
        Node::Assign { .. } | Node::Return { .. } | Node::Break | Node::Continue => {
            own(format!(
                "{name} ({}) is the last step of {what}, and no RETURN follows it",
                last.node.keyword()
            ))
        }
        Node::Loop { .. } => own(format!(
            "{name} (LOOP), the last step of {what}, can finish (any loop but (while (const true)) can), and no RETURN follows it"
        )),
        Node::Seq { block } => {
            let inner = fall_off(block, &name);
            FallOff {
                path: format!("{name} (SEQ) can end: {}", inner.path),
                step: inner.step.or(Some(last)),
                span: if inner.step.is_some() { inner.span } else { last.span },
                empty: inner.empty,
            }
        }
        Node::If {
            then_block,
            else_block,
            ..
        } => {
            let (branch, block) = if block_completes(then_block) {
                ("THEN", then_block)
            } else {
                ("ELSE", else_block)
            };
            let inner = fall_off(block, &format!("the {branch} of {name}"));
            let span = if block.steps.is_empty() && !block.span.is_synthetic() {
                block.span
            } else if inner.step.is_some() {
                inner.span
            } else {
                last.span
            };
            FallOff {
                path: format!("{name} (IF) can take its {branch} branch, where {}", inner.path),
                step: inner.step.or(Some(last)),
                span,
                empty: inner.empty,
            }
        }
    }
}
