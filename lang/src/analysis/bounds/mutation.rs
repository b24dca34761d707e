//! Mutations of the analysis' facts, for the checker's test
//! ([`crate::analysis::proof`]): one fact of one point dropped, widened, or
//! with a bound shifted by one, as a wrong analysis would hand them to a
//! backend. Test builds only.

use super::super::interval::{Interval, MAX, MIN};
use super::{Bounds, Env};
use crate::iir::StepId;

/// A point of the program the facts are kept for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Point {
    State(usize),
    Before(StepId),
    Head(StepId),
}

/// One fact of a point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// An int variable's interval.
    Range(String),
    /// The ints a collection variable holds.
    Leaves(String),
    /// An int variable is below an array's length.
    Below(String, String),
}

/// What is done to the fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Drop,
    Widen,
    /// Its lower (`false`) or upper (`true`) bound moved by the amount.
    Shift(bool, i128),
}

/// One mutation: a fact of a point changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutation {
    pub point: Point,
    pub fact: Fact,
    pub kind: Kind,
}

impl Bounds {
    /// Every point with its facts.
    pub fn points(&self) -> Vec<(Point, Env)> {
        let state = self
            .state
            .iter()
            .enumerate()
            .map(|(i, e)| (Point::State(i), e.clone()));
        let before = self
            .before
            .iter()
            .map(|(id, e)| (Point::Before(id.clone()), e.clone()));
        let head = self
            .head
            .iter()
            .map(|(id, e)| (Point::Head(id.clone()), e.clone()));
        state.chain(before).chain(head).collect()
    }

    /// The facts with the mutation made; `None` when it changes nothing.
    pub fn mutated(&self, m: &Mutation) -> Option<Bounds> {
        let mut out = self.clone();
        let env = match &m.point {
            Point::State(i) => out.state.get_mut(*i)?,
            Point::Before(id) => out.before.get_mut(id)?,
            Point::Head(id) => out.head.get_mut(id)?,
        };
        let old = env.clone();
        env.mutate(&m.fact, m.kind);
        (*env != old).then_some(out)
    }
}

impl Env {
    /// Every fact of the point.
    pub fn facts(&self) -> Vec<Fact> {
        let ranges = self.ranges.keys().map(|v| Fact::Range(v.clone()));
        let elems = self.elems.keys().map(|v| Fact::Leaves(v.clone()));
        let below = self
            .below
            .iter()
            .flat_map(|(v, arrays)| arrays.iter().map(|a| Fact::Below(v.clone(), a.clone())));
        ranges.chain(elems).chain(below).collect()
    }

    fn mutate(&mut self, fact: &Fact, kind: Kind) {
        let moved = |iv: Interval| match kind {
            Kind::Drop => None,
            Kind::Widen => Some(Interval::new(
                (iv.lo - 1000).max(MIN),
                (iv.hi + 1000).min(MAX),
            )),
            // No 64-bit int lies past the range: a bound moved there says
            // nothing new.
            Kind::Shift(false, by) => Some(Interval::new((iv.lo + by).max(MIN), iv.hi)),
            Kind::Shift(true, by) => Some(Interval::new(iv.lo, (iv.hi + by).min(MAX))),
        };
        match fact {
            Fact::Range(v) => match self.ranges.get(v).copied().map(moved) {
                Some(Some(iv)) if iv.lo <= iv.hi => {
                    self.ranges.insert(v.clone(), iv);
                }
                Some(None) => {
                    self.ranges.remove(v);
                }
                _ => {}
            },
            Fact::Leaves(v) => match self.elems.get(v).copied() {
                Some(Some(iv)) => match moved(iv) {
                    Some(iv) if iv.lo <= iv.hi => {
                        self.elems.insert(v.clone(), Some(iv));
                    }
                    Some(_) => {}
                    None => {
                        self.elems.remove(v);
                    }
                },
                // Holding no ints: dropping says it may hold any; widening,
                // that it may hold 0.
                Some(None) => match kind {
                    Kind::Drop => {
                        self.elems.remove(v);
                    }
                    Kind::Widen => {
                        self.elems.insert(v.clone(), Some(Interval::exact(0)));
                    }
                    Kind::Shift(..) => {}
                },
                None => {}
            },
            Fact::Below(v, a) => {
                if kind == Kind::Drop {
                    if let Some(arrays) = self.below.get_mut(v) {
                        arrays.remove(a);
                        if arrays.is_empty() {
                            self.below.remove(v);
                        }
                    }
                }
            }
        }
    }
}

impl Bounds {
    /// The facts of an analysis that takes each loop's head for the facts
    /// before the loop, without the rounds that add what the body brings
    /// back: the hole of an argument about loop heads.
    pub fn of_first_round_only(program: &crate::iir::Program) -> Bounds {
        Bounds::walk(program, true)
    }
}
