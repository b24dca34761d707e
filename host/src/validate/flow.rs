//! Paths through a program: where the steps can end without a `RETURN`, which
//! steps can never run, and which reads of a variable can only find it without
//! a value.
//!
//! A step *completes* when control can pass on to the next step: every step but
//! a `RETURN`, an `IF` whose branches both never complete, a block holding a
//! step that never completes, and a `LOOP` whose `ITER` is `(while (const true))`
//! (Isu has no BREAK, so only a `RETURN` leaves it). Other loops may run zero
//! times, so they always complete.
//!
//! Reads are checked with a *may-be-assigned* analysis: the set of `LOCAL`s that
//! some path to a point may have assigned. A read of a `LOCAL` outside that set
//! finds it without a value on every path, which is certain to fail, so it is a
//! `StaticError`; a read that fails only on some paths is left to the
//! interpreter's `uninitialized_read`. A loop's body is analysed with
//! everything the body assigns counted as maybe assigned (a later round sees
//! what an earlier one wrote) and with the loop variable assigned.

use super::scope::{Scope, Section};
use crate::diag::{Code, Diagnostic};
use isu_plugin_api::{
    Block, Expr, ExprNode, Iter, Literal, Node, Place, Program, Span, Step, StepId,
};
use std::collections::BTreeSet;

/// The `LOCAL`s that may hold a value at a point.
type Assigned = BTreeSet<String>;

/// Runs the flow checks, adding to `diags`.
pub(super) fn check(program: &Program, scope: &Scope, diags: &mut Vec<Diagnostic>) {
    state_order(program, scope, diags);
    let mut flow = Flow {
        scope,
        diags,
        reported: BTreeSet::new(),
    };
    if flow.block(&program.body, Assigned::new()).is_some() {
        missing_return(program, flow.diags);
    }
}

/// `STATE` initializers run in order before the steps: each may read `ARGS`
/// and earlier `STATE` variables only (`unassigned_variable` otherwise).
fn state_order(program: &Program, scope: &Scope, diags: &mut Vec<Diagnostic>) {
    for (i, sv) in program.state.iter().enumerate() {
        let owner = &sv.name.name;
        let mut seen = BTreeSet::new();
        visit_vars(&sv.init, &mut |name, span| {
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
    diags: &'a mut Vec<Diagnostic>,
    /// (step, variable) pairs already reported, so a step reading a variable
    /// twice gets one error.
    reported: BTreeSet<(Option<String>, String)>,
}

impl Flow<'_> {
    /// Analyses a block entered with `state`; `None` when it never completes.
    /// Steps after one that never completes are reported as unreachable.
    fn block(&mut self, b: &Block, state: Assigned) -> Option<Assigned> {
        let mut state = Some(state);
        for (i, s) in b.steps.iter().enumerate() {
            let Some(cur) = state else {
                if let Some(prev) = i.checked_sub(1).and_then(|p| b.steps.get(p)) {
                    unreachable(prev, &b.steps[i..], self.diags);
                }
                return None;
            };
            state = self.step(s, cur);
        }
        state
    }

    fn step(&mut self, s: &Step, cur: Assigned) -> Option<Assigned> {
        let id = s.id.as_ref();
        match &s.node {
            Node::Seq { block } => self.block(block, cur),
            Node::Assign { target, expr } => {
                self.read_place(target, &cur, id);
                self.read(expr, &cur, id);
                let mut out = cur;
                self.assign(target.root().0, &mut out);
                Some(out)
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                self.read(cond, &cur, id);
                let t = self.block(then_block, cur.clone());
                let e = self.block(else_block, cur);
                match (t, e) {
                    (Some(mut t), Some(e)) => {
                        t.extend(e);
                        Some(t)
                    }
                    (t, e) => t.or(e),
                }
            }
            Node::Loop { iter, body } => {
                let var = match iter {
                    Iter::Range {
                        var,
                        start,
                        end,
                        step,
                        ..
                    } => {
                        self.read(start, &cur, id);
                        self.read(end, &cur, id);
                        if let Some(step) = step {
                            self.read(step, &cur, id);
                        }
                        Some(var)
                    }
                    Iter::Each { var, seq, .. } => {
                        self.read(seq, &cur, id);
                        Some(var)
                    }
                    // The first check of the condition sees the state on entry;
                    // later ones see more, so they find nothing new.
                    Iter::While { cond, .. } => {
                        self.read(cond, &cur, id);
                        None
                    }
                };
                let mut inner = cur.clone();
                assigned_in(body, &mut |name| self.assign(name, &mut inner));
                if let Some(var) = var {
                    self.assign(&var.name, &mut inner);
                }
                let body_out = self.block(body, inner.clone());
                if never_ends(iter) {
                    return None;
                }
                Some(if body_out.is_some() { inner } else { cur })
            }
            Node::Return { expr } => {
                self.read(expr, &cur, id);
                None
            }
        }
    }

    /// Records that `name` may hold a value (only `LOCAL`s are tracked).
    fn assign(&self, name: &str, state: &mut Assigned) {
        if self
            .scope
            .get(name)
            .is_some_and(|v| v.section == Section::Local)
        {
            state.insert(name.to_owned());
        }
    }

    /// An `(index ...)` place reads the variable it changes, and its indexes.
    fn read_place(&mut self, p: &Place, cur: &Assigned, id: Option<&StepId>) {
        if let Place::Index { base, index, .. } = p {
            let (root, span) = p.root();
            self.read_var(root, span, cur, id);
            self.read(index, cur, id);
            let mut b: &Place = base;
            while let Place::Index { base, index, .. } = b {
                self.read(index, cur, id);
                b = base;
            }
        }
    }

    fn read(&mut self, e: &Expr, cur: &Assigned, id: Option<&StepId>) {
        visit_vars(e, &mut |name, span| self.read_var(name, span, cur, id));
    }

    /// A read of `name` where only the variables in `cur` may hold a value.
    fn read_var(&mut self, name: &str, span: Span, cur: &Assigned, id: Option<&StepId>) {
        let Some(v) = self.scope.get(name) else {
            return;
        };
        if v.section != Section::Local || cur.contains(name) {
            return;
        }
        if !self
            .reported
            .insert((id.map(ToString::to_string), name.to_owned()))
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
            .in_step(id)
            .with_label(v.span, format!("{name} is declared in LOCAL, without a value"))
            .with_hint(format!(
                "assign {name} in a step before this one, or declare it with an initial value instead: STATE: [{name}: {ty} = (const ...)]"
            )),
        );
    }
}

/// Calls `f` with each variable read in `e` and the span of the read.
fn visit_vars(e: &Expr, f: &mut impl FnMut(&str, Span)) {
    match &e.node {
        ExprNode::Const { .. } => {}
        ExprNode::Var { name } => f(name, e.span),
        ExprNode::Unary { arg, .. } => visit_vars(arg, f),
        ExprNode::Binary { lhs, rhs, .. } => {
            visit_vars(lhs, f);
            visit_vars(rhs, f);
        }
        ExprNode::Index { base, index } => {
            visit_vars(base, f);
            visit_vars(index, f);
        }
        ExprNode::Call { args, .. } => {
            for a in args {
                visit_vars(a, f);
            }
        }
    }
}

/// Calls `f` with every variable a step in `b` (at any depth) assigns,
/// loop variables included.
fn assigned_in(b: &Block, f: &mut impl FnMut(&str)) {
    for s in &b.steps {
        match &s.node {
            Node::Assign { target, .. } => f(target.root().0),
            Node::Loop { iter, .. } => match iter {
                Iter::Range { var, .. } | Iter::Each { var, .. } => f(&var.name),
                Iter::While { .. } => {}
            },
            Node::Seq { .. } | Node::If { .. } | Node::Return { .. } => {}
        }
        for inner in s.node.blocks() {
            assigned_in(inner, f);
        }
    }
}

/// `(while (const true))`: a loop only a `RETURN` leaves.
fn never_ends(iter: &Iter) -> bool {
    matches!(
        iter,
        Iter::While { cond, .. } if matches!(cond.node, ExprNode::Const { value: Literal::Bool(true) })
    )
}

/// Whether control can pass from the step to the one after it.
fn completes(s: &Step) -> bool {
    match &s.node {
        Node::Assign { .. } => true,
        Node::Return { .. } => false,
        Node::Seq { block } => block_completes(block),
        Node::If {
            then_block,
            else_block,
            ..
        } => block_completes(then_block) || block_completes(else_block),
        Node::Loop { iter, .. } => !never_ends(iter),
    }
}

fn block_completes(b: &Block) -> bool {
    b.steps.iter().all(completes)
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
        Node::Loop { .. } => {
            format!("{p} before {them} is a (while (const true)) loop, which only a RETURN leaves")
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
        Node::Assign { .. } | Node::Return { .. } => {
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
