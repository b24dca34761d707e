//! The checker of the bounds analysis: before a backend drops a check on
//! the facts of [`super::bounds`], it derives them again
//! ([`checked`], the one function the backends call).
//!
//! A dropped check is justified by the facts where it runs: the facts where
//! its step starts (or a `while`'s head, or a `STATE` initializer's), and
//! what the conditions it lies under say ([`Env::learned`]); the backend's
//! own interval arithmetic does the rest. The checker does not find those
//! facts again the way the analysis does (rounds of a loop, widening): it
//! takes the analysis' facts as a certificate and checks that each one
//! follows from the one before it by one step of the program, in the order
//! the steps run. Every step's facts must be exactly what the step before
//! gives them; a loop's head must hold what every way into a round brings
//! (the facts before the loop, the end of the body, each `CONTINUE`), and
//! the facts after a loop are what its head gives where the loop ends by
//! itself joined with each `BREAK`'s. Facts that pass hold on every run, by
//! induction over the steps run; a wrong analysis (a fact dropped, an
//! interval too wide or too narrow, a bound off by one) fails somewhere.
//!
//! A disagreement is an error in debug builds, which the tests run, and
//! wherever `ISU_BOUNDS_STRICT` is set (a long fuzz run of a release build);
//! otherwise the backend gets no facts at all, so it keeps every check, and
//! a warning goes to stderr.

use super::bounds::{join_all, Bounds, Env, Round};
use super::flow::never_ends;
use super::Decls;
use crate::iir::{Block, Iter, Node, Program, Step, StepId};
use std::fmt;

/// Where the analysis and the checker part.
#[derive(Debug, Clone, PartialEq)]
pub struct Disagreement {
    /// The step whose facts do not follow (`None`: a `STATE` initializer).
    pub step: Option<StepId>,
    /// What does not follow.
    pub message: String,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.step {
            Some(id) => write!(f, "at {id}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The bounds of `program`, checked: in a debug build (or with
/// `ISU_BOUNDS_STRICT` set) a disagreement is an error; in a release build
/// it is logged and no fact is kept, so that every check is.
pub fn checked(program: &Program) -> Result<Bounds, Disagreement> {
    let bounds = Bounds::of(program);
    match check(program, &bounds) {
        Ok(()) => Ok(bounds),
        Err(d) if strict() => Err(d),
        Err(d) => {
            eprintln!(
                "warning: the bounds checker refuses the analysis' facts {d}; every check is kept"
            );
            Ok(Bounds::default())
        }
    }
}

/// Whether a disagreement is an error: in debug builds, and where the
/// environment variable `ISU_BOUNDS_STRICT` is set.
fn strict() -> bool {
    cfg!(debug_assertions) || std::env::var_os("ISU_BOUNDS_STRICT").is_some()
}

/// Checks that every fact of `bounds` follows, step by step, from the
/// facts where `program` starts.
pub fn check(program: &Program, bounds: &Bounds) -> Result<(), Disagreement> {
    let decls = Decls::of(program);
    let mut c = Checker {
        decls: &decls,
        bounds,
        exits: Vec::new(),
    };
    let mut env = Env::at_start(&decls);
    for (i, s) in program.state.iter().enumerate() {
        let at = || format!("STATE {}", s.name.name);
        same(None, &at(), &env, &bounds.state(i))?;
        env.initialized(&s.name.name, &s.init, &decls);
    }
    c.block(&program.body, env)?;
    Ok(())
}

/// The facts at a point must be exactly those derived for it.
fn same(
    step: Option<&StepId>,
    what: &str,
    derived: &Env,
    claimed: &Env,
) -> Result<(), Disagreement> {
    if derived.within(claimed) && claimed.within(derived) {
        return Ok(());
    }
    Err(Disagreement {
        step: step.cloned(),
        message: format!(
            "{what}: the analysis says {claimed:?}, the steps before give {derived:?}"
        ),
    })
}

/// A loop's head must hold what a way into a round brings.
fn holds(step: Option<&StepId>, what: &str, derived: &Env, head: &Env) -> Result<(), Disagreement> {
    if derived.within(head) {
        return Ok(());
    }
    Err(Disagreement {
        step: step.cloned(),
        message: format!(
            "{what} does not hold at the loop's head: the head says {head:?}, {what} gives {derived:?}"
        ),
    })
}

struct Checker<'a> {
    decls: &'a Decls,
    bounds: &'a Bounds,
    /// For each loop around the step (innermost last), the facts at its
    /// `BREAK`s and `CONTINUE`s.
    exits: Vec<(Vec<Env>, Vec<Env>)>,
}

type Res<T> = Result<T, Disagreement>;

impl Checker<'_> {
    fn block(&mut self, b: &Block, env: Env) -> Res<Option<Env>> {
        let mut env = Some(env);
        for s in &b.steps {
            let Some(cur) = env else {
                return Ok(None);
            };
            env = self.step(s, cur)?;
        }
        Ok(env)
    }

    fn step(&mut self, s: &Step, derived: Env) -> Res<Option<Env>> {
        let mut env = match &s.id {
            Some(id) => {
                let claimed = self.bounds.before(id);
                same(
                    Some(id),
                    "the facts where the step starts",
                    &derived,
                    &claimed,
                )?;
                claimed
            }
            None => derived,
        };
        Ok(match &s.node {
            Node::Seq { block } => self.block(block, env)?,
            Node::Assign { target, expr } => {
                env.assigned(target, expr, self.decls);
                Some(env)
            }
            Node::If {
                cond,
                then_block,
                else_block,
            } => {
                let t = self.block(then_block, env.learned(cond, true))?;
                let e = self.block(else_block, env.learned(cond, false))?;
                join_all([t, e])
            }
            Node::Loop { iter, body } => self.looping(s.id.as_ref(), iter, body, env)?,
            Node::Return { .. } => None,
            Node::Break => {
                if let Some((breaks, _)) = self.exits.last_mut() {
                    breaks.push(env);
                }
                None
            }
            Node::Continue => {
                if let Some((_, continues)) = self.exits.last_mut() {
                    continues.push(env);
                }
                None
            }
        })
    }

    fn looping(
        &mut self,
        id: Option<&StepId>,
        iter: &Iter,
        body: &Block,
        env: Env,
    ) -> Res<Option<Env>> {
        let round = Round::start(iter, &env, self.decls, self.exits.len());
        let entry = round.enter(env, iter);
        let head = match id {
            Some(id) => self.bounds.head(id),
            None => entry.clone(),
        };
        holds(id, "the facts before the loop", &entry, &head)?;
        self.exits.push((Vec::new(), Vec::new()));
        let end = self.block(body, round.begin(iter, &head))?;
        let (breaks, continues) = self.exits.pop().unwrap_or_default();
        if let Some(end) = &end {
            holds(id, "the end of the body", end, &head)?;
        }
        for c in &continues {
            holds(id, "a CONTINUE", c, &head)?;
        }
        let ended = (!never_ends(iter)).then(|| match iter {
            Iter::While { cond, .. } => head.learned(cond, false),
            _ => head,
        });
        let after = join_all(breaks.into_iter().map(Some).chain([ended]));
        Ok(after.map(|a| round.leave(a)))
    }
}

#[cfg(test)]
mod tests;
