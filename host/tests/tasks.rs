//! The shipped task sets of `isu eval` (`tasks/NAME.jsonl`): every line
//! reads as a task the toolchain accepts, and every task is solvable in Isu:
//! its reference solution (`tasks/NAME.solutions/ID.isu`) is canonical text
//! that passes the shown examples and, judged as `isu eval` judges, the
//! hidden ones, in the interpreter with the standard functions only.

use isu_host::functions::Functions;
use isu_host::llm::eval::judge;
use isu_host::llm::task::{read_tasks, Task};
use isu_host::source::Source;
use isu_host::{canon, pipeline};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn tasks_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks")
}

/// The task files: `tasks/*.jsonl`, sorted.
fn task_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(tasks_dir())
        .unwrap_or_else(|e| panic!("reading tasks/: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Every problem of one task and its solution, as sentences.
fn problems(task: &Task, solutions: &Path, packs: &Functions) -> Vec<String> {
    let id = task.id();
    let mut out = Vec::new();
    if let Err(errors) = task.check(packs) {
        for e in errors {
            out.push(format!("{id}: the task is refused: {}", e.message));
        }
        return out;
    }
    if task.words.trim().is_empty() {
        out.push(format!("{id}: no words"));
    }
    if task.examples.is_empty() || task.hidden.is_empty() {
        out.push(format!(
            "{id}: {} shown and {} hidden examples; both must be there",
            task.examples.len(),
            task.hidden.len()
        ));
    }
    let path = solutions.join(format!("{id}.isu"));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            out.push(format!("{id}: no solution at {}: {e}", path.display()));
            return out;
        }
    };
    // The solution is what a model should write: canonical text whose
    // signature and IO are the task's, as `isu gen` would keep it.
    let fe = pipeline::parse_canonical(&Source::new(path.display().to_string(), text.as_str()));
    match &fe.program {
        Some(p) => {
            if canon::print(p) != text {
                out.push(format!(
                    "{id}: the solution is not canonical (`isu fmt` it)"
                ));
            }
            if task.header(packs).is_ok_and(|h| !text.starts_with(&h)) {
                out.push(format!(
                    "{id}: the solution does not start with the task's header"
                ));
            }
        }
        None => out.push(format!("{id}: the solution does not parse")),
    }
    let mut shown = task.clone();
    shown.hidden.clear();
    let (passed, total) = judge(&shown, Some(&text), packs);
    if passed != total {
        out.push(format!(
            "{id}: the solution passes {passed} of {total} shown examples"
        ));
    }
    let (passed, total) = judge(task, Some(&text), packs);
    if passed != total {
        out.push(format!(
            "{id}: the solution passes {passed} of {total} hidden examples"
        ));
    }
    out
}

#[test]
fn every_shipped_task_parses_and_its_solution_passes_the_shown_and_hidden_examples() {
    let files = task_files();
    assert!(!files.is_empty(), "no task file in tasks/");
    let packs = Functions::default();
    let mut all = Vec::new();
    for file in &files {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let tasks = read_tasks(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let solutions = file.with_extension("solutions");
        for task in &tasks {
            all.extend(
                problems(task, &solutions, &packs)
                    .into_iter()
                    .map(|p| format!("{name}: {p}")),
            );
        }
        // No solution without its task.
        let ids: BTreeSet<String> = tasks.iter().map(|t| format!("{}.isu", t.id())).collect();
        for entry in std::fs::read_dir(&solutions).unwrap_or_else(|e| panic!("{name}: {e}")) {
            let f = entry
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .unwrap_or_default();
            if !ids.contains(&f) {
                all.push(format!("{name}: {f} solves no task of the file"));
            }
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn the_basic_set_has_at_least_30_varied_tasks() {
    let text = std::fs::read_to_string(tasks_dir().join("basic.jsonl"))
        .unwrap_or_else(|e| panic!("tasks/basic.jsonl: {e}"));
    let tasks = read_tasks(&text).unwrap_or_else(|e| panic!("tasks/basic.jsonl: {e}"));
    assert!(tasks.len() >= 30, "{} tasks", tasks.len());
    // Ints, strings, arrays and maps, as arguments and as results.
    for ty in [
        "int",
        "bool",
        "string",
        "int[]",
        "string[]",
        "map<string, int>",
    ] {
        assert!(
            tasks.iter().any(|t| t.returns == ty),
            "no task returns {ty}"
        );
    }
    assert!(tasks.iter().any(|t| t.args.contains("map<")));
    assert!(tasks.iter().any(|t| t.args.contains("string[]")));
}
