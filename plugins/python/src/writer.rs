//! The module's text, line by line, with the step each line of code belongs
//! to: the generated function names the step of a runtime error from the
//! line it was raised on.

/// One indentation level.
const INDENT: &str = "    ";

#[derive(Debug, Default)]
pub struct Writer {
    lines: Vec<String>,
    indent: usize,
    deepest: usize,
    /// The step the code lines being written belong to.
    step: Option<String>,
    /// `(line, step)` for every code line written under a step; lines count
    /// from 1.
    step_at: Vec<(usize, String)>,
    /// How many code lines (not comments) have been written.
    code_lines: usize,
    /// For each open block, `code_lines` when it was opened.
    open: Vec<usize>,
}

impl Writer {
    /// A line of code at the current indentation.
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.push(text.as_ref());
        self.code_lines += 1;
        if let Some(step) = &self.step {
            self.step_at.push((self.lines.len(), step.clone()));
        }
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
        self.lines.push(text.into());
    }

    pub fn blank(&mut self) {
        self.lines.push(String::new());
    }

    fn push(&mut self, text: &str) {
        let mut s = INDENT.repeat(self.indent);
        s.push_str(text);
        self.lines.push(s);
    }

    /// Opens a block one level deeper (after a line ending in `:`).
    pub fn open(&mut self) {
        self.indent += 1;
        self.deepest = self.deepest.max(self.indent);
        self.open.push(self.code_lines);
    }

    /// Closes the innermost block; one without code gets `pass`.
    pub fn close(&mut self) {
        if self.open.pop() == Some(self.code_lines) {
            self.line("pass");
        }
        self.indent = self.indent.saturating_sub(1);
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

    pub fn step_lines(&self) -> &[(usize, String)] {
        &self.step_at
    }

    pub fn finish(self) -> String {
        let mut out = self.lines.join("\n");
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_know_their_steps() {
        let mut w = Writer::default();
        w.raw("def f():");
        w.block(|w| {
            w.comment("S1: ASSIGN");
            w.set_step(Some("S1".into()));
            w.line("x = 1");
            w.line("if x:");
            w.block(|_| {});
            w.set_step(None);
            w.line("return x");
        });
        assert_eq!(
            w.step_lines(),
            &[
                (3, "S1".to_owned()),
                (4, "S1".to_owned()),
                (5, "S1".to_owned())
            ]
        );
        assert_eq!(w.deepest(), 2);
        assert_eq!(
            w.finish(),
            "def f():\n    # S1: ASSIGN\n    x = 1\n    if x:\n        pass\n    return x\n"
        );
    }
}
