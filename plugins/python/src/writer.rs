//! The module's text, line by line, and the step each line of the function
//! belongs to, carried in the code itself: before a line of code that may
//! fail ([`Writer::line`]) and whose step the running function may not have
//! recorded yet, the writer puts `_step = "S2_1"` (a local of the
//! function), and the function's handler names that step in the error. A
//! line that cannot fail, or whose errors name their step themselves
//! (`_overflow("add", "S2_1")`), needs no marker ([`Writer::plain`]). Being code, not a table of line numbers,
//! the step survives reformatting (`ruff format`), `python -O` and
//! reimporting.
//!
//! The writer knows what `_step` holds from the lines it wrote: after a
//! marker, and after a block that wrote none (or an `if` and its `else`
//! that wrote none), it holds what it held before; after a block that did,
//! and where a loop starts a round (the round before may have set it), it
//! is not known. A `while` loop whose condition may fail evaluates it again
//! after each round, so the round ends by putting back the loop's own step.

/// One indentation level.
const INDENT: &str = "    ";

/// The local that holds the step being run.
pub const STEP_VAR: &str = "_step";

/// What `_step` holds where the next line goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Marked {
    /// This step (`None`: no step, as in STATE initializers).
    Known(Option<String>),
    /// This step once the markers of these slots (line index and
    /// indentation, at the ends of blocks that changed it) are written,
    /// which a line that needs it does instead of marking itself: a marker
    /// at the end of a branch runs less often than one after it.
    Restorable(Option<String>, Vec<(usize, usize)>),
    /// Not known here: the next line of code under a step sets it.
    Unknown,
}

impl Marked {
    /// The step this holds or can be made to hold.
    fn step(&self) -> Option<&Option<String>> {
        match self {
            Marked::Known(s) | Marked::Restorable(s, _) => Some(s),
            Marked::Unknown => None,
        }
    }
}

#[derive(Debug)]
pub struct Writer {
    /// The lines; `None` for a marker taken back (see [`Writer::safe_for`]).
    lines: Vec<Option<String>>,
    indent: usize,
    deepest: usize,
    /// The step the code lines being written belong to.
    step: Option<String>,
    marked: Marked,
    /// The last line written opens a loop: `Some(step of a while)` when the
    /// loop evaluates its header again each round, `Some(None)` for a `for`.
    loop_header: Option<Option<Option<String>>>,
    /// How many lines of code (not comments) have been written.
    code_lines: usize,
    /// The blocks open around the next line, innermost last.
    open: Vec<Frame>,
    /// The block closed last (for an `else:` after it).
    closed: Option<Frame>,
    /// Whether a clause (`else:`) continues blocks that wrote a marker.
    carry: bool,
    /// For the block of a clause (`else:`): how the block before it ended.
    carry_before: Option<Option<Vec<(usize, usize)>>>,
    /// The slot before a `for` header that cannot fail, for its body's
    /// marker: its line index and indentation.
    hoist: Option<(usize, usize)>,
}

/// An open block.
#[derive(Debug)]
struct Frame {
    /// `code_lines` when it was opened.
    start: usize,
    /// What `_step` held before the block ran.
    entry: Marked,
    /// Whether it is a loop's body, and for a `while`, its condition's step.
    looping: Option<Option<Option<String>>>,
    /// Whether a marker was written in it (or in the blocks of its chain).
    changed: bool,
    /// For the body of a [`Writer::safe_for`]: the slot before its header.
    hoist: Option<(usize, usize)>,
    /// The first marker of the block, if no line before it in the block
    /// changed `_step`: its line and step.
    first_marker: Option<(usize, Option<String>)>,
    /// For a loop's body: what `_step` holds at each `continue` of it
    /// (`None`: what it held when the round started).
    continues: Vec<Option<Marked>>,
    /// For an `else:` block: how the block before it (the `if`'s) ended,
    /// as [`Frame::ended`] gives it.
    before: Option<Option<Vec<(usize, usize)>>>,
    /// Once closed, for a block that is no loop's body: the slots whose
    /// markers make `_step` hold the step it held on entry where the block
    /// ends (`None`: it cannot).
    ended: Option<Vec<(usize, usize)>>,
}

impl Default for Writer {
    fn default() -> Writer {
        Writer {
            lines: Vec::new(),
            indent: 0,
            deepest: 0,
            step: None,
            marked: Marked::Unknown,
            loop_header: None,
            code_lines: 0,
            open: Vec::new(),
            closed: None,
            carry: false,
            carry_before: None,
            hoist: None,
        }
    }
}

/// `_step = "S2_1"` or `_step = None`.
fn marker(step: Option<&str>) -> String {
    match step {
        Some(s) => format!("{STEP_VAR} = \"{s}\""),
        None => format!("{STEP_VAR} = None"),
    }
}

/// Whether a line continues the compound statement before it (`else:`):
/// nothing may stand between the two.
fn is_clause(text: &str) -> bool {
    ["else:", "elif ", "except", "finally:"]
        .iter()
        .any(|c| text.starts_with(c))
}

impl Writer {
    /// A line of code at the current indentation, after the marker of its
    /// step when `_step` may hold another: a line that may raise an error
    /// that does not name its step itself.
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.write(text.as_ref(), true);
    }

    /// A line of code without a marker: one that reads `_step` (the
    /// handler), or that can raise no error of its own, or only errors that
    /// name their step themselves (`_overflow("add", "S1")`).
    pub fn plain(&mut self, text: impl AsRef<str>) {
        self.write(text.as_ref(), false);
    }

    /// A line of code, marked when `fails` (see [`Writer::line`]).
    pub fn code_line(&mut self, text: impl AsRef<str>, fails: bool) {
        self.write(text.as_ref(), fails);
    }

    /// The header of a `while` loop whose condition may fail (`fails`):
    /// then it is marked, and every round ends by putting back the loop's
    /// own step for the condition that runs next.
    /// A condition that cannot fail is a header like [`Writer::safe_for`]'s.
    pub fn while_line(&mut self, text: impl AsRef<str>, fails: bool) {
        if fails {
            self.write(text.as_ref(), true);
        } else {
            self.safe_for(text);
        }
        self.loop_header = Some(fails.then(|| self.step.clone()));
    }

    /// A `continue` of the innermost loop; `fails`: what runs first in the
    /// next round (a `while`'s condition) may fail, under the step of the
    /// line being written, so `_step` is set to it before the jump.
    pub fn continue_line(&mut self, fails: bool) {
        self.write("continue", fails);
        // What `_step` holds where the next round starts, by this path:
        // `None` when nothing changed it since the round started.
        let untouched = self
            .open
            .iter()
            .rev()
            .take_while(|f| f.looping.is_none())
            .all(|f| !f.changed);
        let at = self.open.iter().rposition(|f| f.looping.is_some());
        let state = self.marked.clone();
        if let Some(i) = at {
            let untouched = untouched && !self.open[i].changed;
            self.open[i].continues.push((!untouched).then_some(state));
        }
    }

    fn write(&mut self, text: &str, marks: bool) {
        if is_clause(text) {
            // An `else:` runs instead of the block before it, which started
            // where `_step` held what it held before that block; after a
            // loop (`for ... else:`) the rounds ran first; where an
            // exception lands (`except`), nothing is known.
            let before = self.closed.take();
            self.carry = before.as_ref().is_some_and(|f| f.changed);
            self.carry_before = before
                .as_ref()
                .filter(|f| f.changed && f.looping.is_none() && text.starts_with("el"))
                .map(|f| f.ended.clone());
            self.marked = match before {
                Some(f) if text.starts_with("el") && f.looping.is_none() => f.entry,
                Some(f) if text.starts_with("el") && !f.changed => f.entry,
                _ => Marked::Unknown,
            };
        } else {
            self.closed = None;
            self.carry = false;
            self.carry_before = None;
            if marks {
                self.mark();
            }
        }
        self.code(text);
        self.loop_header = if text.starts_with("while ") {
            Some(Some(self.step.clone()))
        } else if text.starts_with("for ") {
            Some(None)
        } else {
            None
        };
    }

    /// Sets `_step` to the step of the lines being written, unless it holds it.
    fn mark(&mut self) {
        let want = Marked::Known(self.step.clone());
        if !self.holds(&want) {
            let m = marker(self.step.as_deref());
            let at = self.lines.len();
            // The first marker of the block, before which nothing in it
            // changed `_step`.
            let first = self.open.last().is_some_and(|f| !f.changed);
            self.code(&m);
            self.marked = want;
            if let Some(f) = self.open.last_mut() {
                f.changed = true;
                if first {
                    f.first_marker = Some((at, self.step.clone()));
                }
            }
        }
    }

    /// Whether `_step` holds `want` (a [`Marked::Known`]) here, once the
    /// slots of a [`Marked::Restorable`] of that step are written.
    fn holds(&mut self, want: &Marked) -> bool {
        let Marked::Restorable(step, slots) = &self.marked else {
            return self.marked == *want;
        };
        if Some(step) != want.step() {
            return false;
        }
        self.fill(&slots.clone(), step.clone());
        self.marked = want.clone();
        true
    }

    fn fill(&mut self, slots: &[(usize, usize)], step: Option<String>) {
        for &(at, indent) in slots {
            self.lines[at] = Some(indented(indent, &marker(step.as_deref())));
        }
    }

    /// The step of the lines being written.
    pub fn step(&self) -> Option<&str> {
        self.step.as_deref()
    }

    /// A `for` header that cannot fail (it iterates over a range or list
    /// already made). When every round of its body starts and ends under
    /// one step (the first its body marks, before which nothing in the round
    /// changed `_step`; a `continue` ends a round too), the marker of that
    /// step goes before the loop, once, instead of into every round.
    pub fn safe_for(&mut self, text: impl AsRef<str>) {
        // (A `while` whose condition cannot fail comes here too.)
        self.closed = None;
        self.carry = false;
        self.hoist = Some((self.lines.len(), self.indent));
        self.lines.push(None);
        self.code(text.as_ref());
        self.loop_header = Some(None);
    }

    /// A comment line at the current indentation.
    pub fn comment(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        if text.is_empty() {
            self.push("#");
        } else {
            self.push(&format!("# {text}"));
        }
    }

    /// A line written as it is, without indentation (top-level text).
    pub fn raw(&mut self, text: impl Into<String>) {
        self.lines.push(Some(text.into()));
    }

    pub fn blank(&mut self) {
        self.lines.push(Some(String::new()));
    }

    fn code(&mut self, text: &str) {
        self.push(text);
        self.code_lines += 1;
    }

    fn push(&mut self, text: &str) {
        self.lines.push(Some(indented(self.indent, text)));
    }

    /// Opens a block one level deeper (after a line ending in `:`).
    pub fn open(&mut self) {
        self.indent += 1;
        self.deepest = self.deepest.max(self.indent);
        let looping = self.loop_header.take();
        let entry = self.marked.clone();
        if looping.is_some() {
            // A round may follow another that changed `_step`.
            self.marked = Marked::Unknown;
        }
        self.closed = None;
        self.open.push(Frame {
            start: self.code_lines,
            entry,
            looping,
            changed: std::mem::take(&mut self.carry),
            hoist: self.hoist.take(),
            first_marker: None,
            continues: Vec::new(),
            before: self.carry_before.take(),
            ended: None,
        });
    }

    /// Closes the innermost block; one without code gets `pass`.
    pub fn close(&mut self) {
        if let Some(f) = self.open.last() {
            if let Some(Some(step)) = f.looping.clone() {
                // The `while` condition runs next, under the loop's step.
                let outer = std::mem::replace(&mut self.step, step);
                self.mark();
                self.step = outer;
            }
        }
        if let Some(mut f) = self.open.pop() {
            if self.code_lines == f.start {
                self.code("pass");
            }
            if let (Some((slot, indent)), Some((at, step))) = (f.hoist, f.first_marker.take()) {
                // Every way into the next round: the end of the body and
                // each `continue`.
                let ends: Vec<&Marked> = std::iter::once(&self.marked)
                    .chain(f.continues.iter().flatten())
                    .collect();
                if ends.iter().all(|m| m.step() == Some(&step)) {
                    // Every round starts and ends under `step`: set it
                    // once, before the loop (whose header cannot fail).
                    let slots: Vec<(usize, usize)> = ends
                        .iter()
                        .flat_map(|m| match m {
                            Marked::Restorable(_, s) => s.clone(),
                            _ => Vec::new(),
                        })
                        .collect();
                    self.fill(&slots, step.clone());
                    self.marked = Marked::Known(step.clone());
                    self.lines[at] = None;
                    self.lines[slot] = Some(indented(indent, &marker(step.as_deref())));
                }
            }
            if f.changed && f.looping.is_none() {
                // Where the block ends, `_step` can be made to hold again
                // what it held on entry by a marker there; with the other
                // ways to the next line (the `if` skipped, or its block
                // before an `else:`), what comes after can.
                let entry = f.entry.step().cloned();
                f.ended = entry.clone().map(|e| match &self.marked {
                    Marked::Known(s) if *s == e => Vec::new(),
                    Marked::Restorable(s, slots) if *s == e => slots.clone(),
                    _ => {
                        let at = self.lines.len();
                        self.lines.push(None);
                        vec![(at, self.indent)]
                    }
                });
                let mut slots = f.ended.clone();
                match (&mut slots, f.before.clone()) {
                    // The block of an `else:`: the other way is the `if`'s.
                    (Some(s), Some(Some(b))) => s.extend(b),
                    (_, Some(None)) => slots = None,
                    // An `if` without `else:` may be skipped.
                    (Some(s), None) => {
                        if let Marked::Restorable(_, e) = &f.entry {
                            s.extend(e.iter().copied());
                        }
                    }
                    (None, _) => {}
                }
                self.marked = match (entry, slots) {
                    (Some(e), Some(s)) if s.is_empty() => Marked::Known(e),
                    (Some(e), Some(s)) => Marked::Restorable(e, s),
                    _ => Marked::Unknown,
                };
                if let Some(outer) = self.open.last_mut() {
                    outer.changed = true;
                }
            } else if f.changed {
                self.marked = Marked::Unknown;
                if let Some(outer) = self.open.last_mut() {
                    outer.changed = true;
                }
            } else {
                self.marked = f.entry.clone();
            }
            self.closed = Some(f);
        }
        self.indent = self.indent.saturating_sub(1);
        self.loop_header = None;
    }

    /// Writes a block one level deeper with `f`.
    pub fn block(&mut self, f: impl FnOnce(&mut Self)) {
        self.open();
        f(self);
        self.close();
    }

    /// Sets the step of the code lines that follow; returns the previous one.
    pub fn set_step(&mut self, step: Option<String>) -> Option<String> {
        std::mem::replace(&mut self.step, step)
    }

    /// The deepest indentation written, in levels.
    pub fn deepest(&self) -> usize {
        self.deepest
    }

    pub fn finish(self) -> String {
        let mut out = String::new();
        for line in self.lines.into_iter().flatten() {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

fn indented(indent: usize, text: &str) -> String {
    let mut s = INDENT.repeat(indent);
    s.push_str(text);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_under_a_step_the_function_may_not_hold_is_marked() {
        let mut w = Writer::default();
        w.raw("def f():");
        w.block(|w| {
            w.line("x = 0");
            w.comment("S1: ASSIGN");
            w.set_step(Some("S1".into()));
            w.line("x = 1");
            w.line("if x:");
            w.block(|w| {
                w.set_step(Some("S1_1".into()));
                w.line("y = 2");
                w.set_step(Some("S1".into()));
            });
            w.line("else:");
            w.block(|_| {});
            w.line("z = 3");
            w.set_step(None);
            w.line("return x");
        });
        assert_eq!(w.deepest(), 2);
        assert_eq!(
            w.finish(),
            "def f():\n    _step = None\n    x = 0\n    # S1: ASSIGN\n    _step = \"S1\"\n    x = 1\n    if x:\n        _step = \"S1_1\"\n        y = 2\n        _step = \"S1\"\n    else:\n        pass\n    z = 3\n    _step = None\n    return x\n"
        );
    }

    #[test]
    fn loops_mark_each_round_and_a_while_puts_its_step_back() {
        let mut w = Writer::default();
        w.set_step(Some("S1".into()));
        w.line("for x in xs:");
        w.block(|w| w.line("a = x"));
        w.line("while c():");
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("b = 1");
            w.set_step(Some("S1".into()));
        });
        assert_eq!(
            w.finish(),
            "_step = \"S1\"\nfor x in xs:\n    _step = \"S1\"\n    a = x\n_step = \"S1\"\nwhile c():\n    _step = \"S1_1\"\n    b = 1\n    _step = \"S1\"\n"
        );
    }

    #[test]
    fn blocks_that_mark_nothing_leave_the_step_as_it_was() {
        // (A block that marked puts the step back at its end, where a line
        // after it needs that step.)
        let mut w = Writer::default();
        w.set_step(Some("S1".into()));
        w.line("if a:");
        w.block(|w| w.line("b = 1"));
        w.line("else:");
        w.block(|w| w.line("c = 1"));
        w.line("d = 1");
        w.line("if e:");
        w.block(|w| w.line("f = 1"));
        w.line("else:");
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("g = 1");
            w.set_step(Some("S1".into()));
        });
        w.line("h = 1");
        assert_eq!(
            w.finish(),
            "_step = \"S1\"\nif a:\n    b = 1\nelse:\n    c = 1\nd = 1\nif e:\n    f = 1\nelse:\n    _step = \"S1_1\"\n    g = 1\n    _step = \"S1\"\nh = 1\n"
        );
    }

    #[test]
    fn the_marker_of_a_one_step_body_goes_before_a_safe_loop() {
        let mut w = Writer::default();
        w.set_step(Some("S1".into()));
        w.line("_seq = range(n)");
        w.safe_for("for i in _seq:");
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("xs[i] = 0");
            w.set_step(Some("S1".into()));
        });
        w.line("y = 1");
        w.safe_for("for i in _seq:");
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("a = 0");
            w.set_step(Some("S1_2".into()));
            w.line("b = 0");
            w.set_step(Some("S1".into()));
        });
        assert_eq!(
            w.finish(),
            "_step = \"S1\"\n_seq = range(n)\n_step = \"S1_1\"\nfor i in _seq:\n    xs[i] = 0\n_step = \"S1\"\ny = 1\nfor i in _seq:\n    _step = \"S1_1\"\n    a = 0\n    _step = \"S1_2\"\n    b = 0\n"
        );
    }

    #[test]
    fn lines_that_cannot_fail_leave_the_step_and_a_while_cond_that_cannot_fail_needs_none() {
        let mut w = Writer::default();
        w.set_step(Some("S1".into()));
        w.while_line("while i < n:", false);
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.plain("i = i + 1");
            w.line("a = xs[i]");
            w.set_step(Some("S1".into()));
        });
        w.plain("b = 1");
        w.line("c = xs[0]");
        assert_eq!(
            w.finish(),
            "_step = \"S1_1\"\nwhile i < n:\n    i = i + 1\n    a = xs[i]\nb = 1\n_step = \"S1\"\nc = xs[0]\n"
        );
    }

    #[test]
    fn a_continue_under_another_step_keeps_the_marker_in_the_rounds() {
        // The first marker of the body may go before the loop only if every
        // way into the next round leaves `_step` as that marker set it.
        // A `continue` that leaves the step as the round began: hoisted.
        let mut w = Writer::default();
        w.safe_for("for i in _seq:");
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("a = xs[0]");
            w.plain("if c:");
            w.block(|w| w.continue_line(false));
            w.set_step(Some("S1".into()));
        });
        assert_eq!(
            w.finish(),
            "_step = \"S1_1\"\nfor i in _seq:\n    a = xs[0]\n    if c:\n        continue\n"
        );
        let mut w = Writer::default();
        w.safe_for("for i in _seq:");
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("a = xs[0]");
            w.plain("if c:");
            w.block(|w| {
                w.set_step(Some("S1_1_1".into()));
                w.line("b = xs[1]");
                w.set_step(Some("S1".into()));
                w.continue_line(false);
            });
            w.set_step(Some("S1_1".into()));
            w.line("d = xs[2]");
            w.set_step(Some("S1".into()));
        });
        // One under another step: every round sets it again.
        let text = w.finish();
        assert!(
            text.starts_with("for i in _seq:\n    _step = \"S1_1\"\n"),
            "{text}"
        );
    }

    #[test]
    fn a_branch_that_marks_puts_the_step_back_so_the_rounds_need_no_marker() {
        let mut w = Writer::default();
        w.while_line("while i < n:", false);
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("if xs[i]:");
            w.block(|w| {
                w.set_step(Some("S1_1_1".into()));
                w.line("y = ys[i]");
                w.set_step(Some("S1_1".into()));
            });
            w.line("else:");
            w.block(|w| {
                w.set_step(Some("S1_1_2".into()));
                w.plain("z = 1");
                w.set_step(Some("S1_1".into()));
            });
            w.set_step(Some("S1_2".into()));
            w.plain("i = i + 1");
            w.set_step(Some("S1".into()));
        });
        w.set_step(Some("S2".into()));
        w.line("return ys[0]");
        assert_eq!(
            w.finish(),
            "_step = \"S1_1\"\nwhile i < n:\n    if xs[i]:\n        _step = \"S1_1_1\"\n        y = ys[i]\n        _step = \"S1_1\"\n    else:\n        z = 1\n    i = i + 1\n_step = \"S2\"\nreturn ys[0]\n"
        );
        // An `if` whose block marked, skipped or not, and a line after it
        // under another step: no marker goes back.
        let mut w = Writer::default();
        w.set_step(Some("S1".into()));
        w.line("if xs[0]:");
        w.block(|w| {
            w.set_step(Some("S1_1".into()));
            w.line("y = ys[0]");
        });
        w.set_step(Some("S2".into()));
        w.line("z = ys[1]");
        assert_eq!(
            w.finish(),
            "_step = \"S1\"\nif xs[0]:\n    _step = \"S1_1\"\n    y = ys[0]\n_step = \"S2\"\nz = ys[1]\n"
        );
    }
}
