//! Structural mistakes are repaired without a model: in every shipped
//! program (the conformance cases, the task solutions, the examples), in
//! canonical form, each END, each keyword's `:` and each `)` that ends a
//! line is deleted in turn, and
//!
//! - `isu fix` gives back the canonical text, and
//! - where the error names a step, a patch replacing that step with its
//!   original text gives it back too (the step's extent in the broken text
//!   is the one its layout shows, so nothing after it is replaced).

use isu_host::canon;
use isu_host::diag::has_errors;
use isu_host::functions::Functions;
use isu_host::{fix, patch, pipeline, syntax, Source};
use isu_plugin_api::Program;
use std::path::{Path, PathBuf};

/// A shipped program in canonical form.
struct Shipped {
    path: PathBuf,
    program: Program,
    text: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn shipped(packs: &Functions) -> Vec<Shipped> {
    let mut out = Vec::new();
    for dir in ["conformance/cases", "tasks/basic.solutions", "examples"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "isu"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let fe = pipeline::check_with(&Source::new("<shipped>", text.as_str()), packs);
            let Some(program) = fe.program.clone() else {
                panic!("{} does not parse", path.display());
            };
            let text = canon::print_with(&program, &fe.layout.comments);
            out.push(Shipped {
                path,
                program,
                text,
            });
        }
    }
    assert!(out.len() > 200, "only {} shipped programs found", out.len());
    out
}

/// One mutation of a canonical text.
struct Broken {
    what: String,
    text: String,
}

/// The text without line `n` (from 0).
fn without_line(text: &str, n: usize) -> String {
    text.split_inclusive('\n')
        .enumerate()
        .filter(|(i, _)| *i != n)
        .map(|(_, l)| l)
        .collect()
}

/// The text with the byte at `at` removed.
fn without_byte(text: &str, at: usize) -> String {
    let mut s = text.to_owned();
    s.remove(at);
    s
}

fn mutations(text: &str) -> Vec<Broken> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches('\n');
        let trimmed = body.trim_start();
        let indent = body.len() - trimmed.len();
        if trimmed == "END" {
            out.push(Broken {
                what: format!("the END of line {}", n + 1),
                text: without_line(text, n),
            });
        }
        // A keyword and its `:` starting the line (`COND:`, `STATE:`).
        let word: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || *c == '_')
            .collect();
        if !word.is_empty() && trimmed[word.len()..].starts_with(':') {
            out.push(Broken {
                what: format!("the `:` of {word} on line {}", n + 1),
                text: without_byte(text, offset + indent + word.len()),
            });
        }
        if !trimmed.starts_with(';') && body.ends_with(')') {
            out.push(Broken {
                what: format!("the `)` ending line {}", n + 1),
                text: without_byte(text, offset + body.len() - 1),
            });
        }
        offset += line.len();
    }
    out
}

/// The patch that replaces step `id` of `program` with its own text.
fn replace_with_original(program: &Program, id: &isu_plugin_api::StepId) -> Option<String> {
    let step = program.find_step(id)?;
    Some(format!(
        "PATCH:\n  REPLACE {id}:\n{}",
        canon::print_step(step, 4)
    ))
}

/// What one mutation came to: `None` when it was repaired both ways, and
/// whether a patch was tried.
fn repair(s: &Shipped, broken: &Broken, packs: &Functions) -> (Option<String>, bool) {
    let name = format!("{}: {}", s.path.display(), broken.what);
    let src = Source::new("<broken>", broken.text.as_str());
    let fixed = fix::fix(&src, packs);
    if fixed.text != s.text {
        let left: Vec<_> = fixed
            .front
            .diags
            .iter()
            .map(|d| (d.code.as_str(), d.message.clone()))
            .collect();
        return (
            Some(format!(
                "{name}: isu fix gives\n{}\nwith {left:?}",
                fixed.text
            )),
            false,
        );
    }
    // The step the first error naming one names, replaced with its own text.
    let parsed = syntax::parse(&src);
    if !has_errors(&parsed.diags) {
        return (Some(format!("{name}: no error")), false);
    }
    let Some(step) = parsed.diags.iter().find_map(|d| d.step.clone()) else {
        return (None, false);
    };
    let Some(patch_text) = replace_with_original(&s.program, &step) else {
        return (
            Some(format!(
                "{name}: the error names {step}, which the program lacks"
            )),
            false,
        );
    };
    let (file, diags) = syntax::parse_patch(&Source::new("<patch>", patch_text.as_str()));
    let Some(file) = file else {
        return (
            Some(format!("{name}: the patch does not parse: {diags:?}")),
            true,
        );
    };
    let failure = match patch::apply_to_source(&src, &file, packs) {
        Ok(p) if p.text == s.text => None,
        Ok(p) => Some(format!(
            "{name}: REPLACE {step} with its own text gives\n{}",
            p.text
        )),
        Err(e) => Some(format!("{name}: REPLACE {step} is refused: {e:?}")),
    };
    (failure, true)
}

#[test]
fn every_deleted_end_colon_and_closing_parenthesis_is_repaired() {
    let packs = Functions::linked(isu_packs::SHIPPED);
    let programs = shipped(&packs);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = programs.len().div_ceil(threads);
    // (failures, mutations, patched) of each thread's share.
    let results: Vec<(Vec<String>, usize, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = programs
            .chunks(chunk)
            .map(|share| {
                let packs = &packs;
                scope.spawn(move || {
                    let mut out = (Vec::new(), 0, 0);
                    for s in share {
                        for broken in mutations(&s.text) {
                            out.1 += 1;
                            let (failure, tried) = repair(s, &broken, packs);
                            out.0.extend(failure);
                            out.2 += usize::from(tried);
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let failures: Vec<String> = results.iter().flat_map(|r| r.0.clone()).collect();
    let checked: usize = results.iter().map(|r| r.1).sum();
    let patched: usize = results.iter().map(|r| r.2).sum();
    let heads: Vec<&str> = failures.iter().filter_map(|f| f.lines().next()).collect();
    assert!(
        failures.is_empty(),
        "{} of {checked} mutations not repaired ({patched} patched):\n{}\n\nThe first in full:\n\n{}",
        failures.len(),
        heads.join("\n"),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n\n")
    );
    assert!(checked > 7000, "only {checked} mutations");
    // Fewer since canonical text leaves an empty ELSE out (no END to delete).
    assert!(
        patched > 3500,
        "only {patched} mutations named a step to patch"
    );
}
