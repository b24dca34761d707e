//! What a model is asked to write: a function described in words, with its
//! signature and examples. The examples shown to the model become the
//! program's `IO` (whatever the model writes there); the hidden ones, held
//! back by `isu eval`, judge the result.

use crate::canon;
use crate::diag::{Code, Diagnostic};
use crate::pipeline;
use crate::plugins::PackFunctions;
use crate::source::Source;
use isu_plugin_api::Program;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One example: the arguments (a JSON object) and the expected result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Example {
    pub input: Value,
    pub output: Value,
}

impl Example {
    /// Reads `ARGS=>RESULT` (`{"xs": [1, 2]}=>3`): the first `=>` with JSON
    /// on both sides.
    pub fn parse(text: &str) -> Result<Example, String> {
        for (at, _) in text.match_indices("=>") {
            let (input, output) = (&text[..at], &text[at + 2..]);
            if let (Ok(input), Ok(output)) = (
                isu_plugin_api::json::parse(input),
                isu_plugin_api::json::parse(output),
            ) {
                if !input.is_object() {
                    return Err(format!(
                        "`{}` is not a JSON object of arguments",
                        input_text(&input)
                    ));
                }
                return Ok(Example { input, output });
            }
        }
        Err(format!(
            "`{text}` is not ARGS=>RESULT with JSON on both sides, e.g. '{{\"xs\": [1, 2]}}=>3'"
        ))
    }
}

fn input_text(v: &Value) -> String {
    v.to_string()
}

/// A function to write.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// A name for reports (`isu eval`); the function's name when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What the function does, in the user's words.
    pub words: String,
    /// The function's name.
    pub name: String,
    /// Its parameters, as in `ARGS: [...]` without the brackets: `xs: int[], n: int`.
    #[serde(default)]
    pub args: String,
    /// Its return type.
    pub returns: String,
    /// The examples the model sees; they become the program's `IO`.
    #[serde(default)]
    pub examples: Vec<Example>,
    /// Examples held back to judge the result (`isu eval`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<Example>,
}

impl Task {
    /// The name reports use.
    pub fn id(&self) -> &str {
        self.id.as_deref().unwrap_or(&self.name)
    }

    /// The text of a program with this signature, these examples as `IO` and
    /// no steps.
    fn skeleton_text(&self, examples: &[&Example]) -> String {
        let inputs: Vec<String> = examples.iter().map(|e| e.input.to_string()).collect();
        let outputs: Vec<String> = examples.iter().map(|e| e.output.to_string()).collect();
        format!(
            "META:\n  AUTO_ID: true\nFUNC:\n  NAME: {}\n  ARGS: [{}]\n  RETURNS: {}\nIO:\n  INPUT: [{}]\n  OUTPUT: [{}]\nSTEPS:\n  SEQ: BEGIN\n  END\n",
            self.name,
            self.args,
            self.returns,
            inputs.join(", "),
            outputs.join(", ")
        )
    }

    /// The program with these examples and no steps, checked: every error of
    /// the signature or the examples (a bad name or type, an example of the
    /// wrong shape or types), each naming the task.
    fn skeleton(
        &self,
        examples: &[&Example],
        packs: &PackFunctions,
    ) -> Result<Program, Vec<Diagnostic>> {
        if self.name.contains(['\n', '\r'])
            || self.args.contains(['\n', '\r'])
            || self.returns.contains(['\n', '\r'])
        {
            return Err(vec![Diagnostic::error(
                Code::InvalidArgument,
                format!(
                    "task `{}`: the name, the arguments and the return type are one line each",
                    self.id()
                ),
            )]);
        }
        let text = self.skeleton_text(examples);
        let fe = pipeline::check_with(&Source::new("<task>", text.as_str()), packs);
        let errors: Vec<Diagnostic> = fe
            .diags
            .iter()
            .filter(|d| d.is_error() && d.code != Code::MissingReturn)
            .map(|d| {
                // The spans point into a text the user never saw.
                let mut d = d.clone();
                d.message = format!("task `{}`: {}", self.id(), d.message);
                d.span = None;
                d.labels.clear();
                d
            })
            .collect();
        match fe.program {
            Some(p) if errors.is_empty() => Ok(p),
            _ if errors.is_empty() => Err(vec![Diagnostic::error(
                Code::InvalidArgument,
                format!("task `{}`: its signature does not parse", self.id()),
            )]),
            _ => Err(errors),
        }
    }

    /// Checks the signature and every example, shown and hidden.
    pub fn check(&self, packs: &PackFunctions) -> Result<(), Vec<Diagnostic>> {
        let all: Vec<&Example> = self.examples.iter().chain(&self.hidden).collect();
        self.skeleton(&all, packs).map(|_| ())
    }

    /// The canonical header the program must start with: `META`, `FUNC` and
    /// `IO` with the shown examples.
    pub fn header(&self, packs: &PackFunctions) -> Result<String, Vec<Diagnostic>> {
        let shown: Vec<&Example> = self.examples.iter().collect();
        let p = self.skeleton(&shown, packs)?;
        let text = canon::print(&p);
        Ok(match text.find("\nSTATE:") {
            Some(at) => text[..=at].to_owned(),
            None => text,
        })
    }

    /// `program` with this task's signature and `examples` as `IO`, in place
    /// of whatever it had.
    pub fn impose(
        &self,
        program: &mut Program,
        hidden: bool,
        packs: &PackFunctions,
    ) -> Result<(), Vec<Diagnostic>> {
        let examples: Vec<&Example> = if hidden {
            self.hidden.iter().collect()
        } else {
            self.examples.iter().collect()
        };
        let skeleton = self.skeleton(&examples, packs)?;
        program.func = skeleton.func;
        program.io = skeleton.io;
        Ok(())
    }
}

/// Reads a task file: one task per line (JSON Lines), blank lines and lines
/// starting with `#` skipped. An error names the line.
pub fn read_tasks(text: &str) -> Result<Vec<Task>, String> {
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let task: Task =
            isu_plugin_api::json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        tasks.push(task);
    }
    let mut seen = std::collections::BTreeSet::new();
    for t in &tasks {
        if !seen.insert(t.id().to_owned()) {
            return Err(format!("two tasks are called `{}`", t.id()));
        }
    }
    Ok(tasks)
}
