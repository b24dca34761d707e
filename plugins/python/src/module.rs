//! One Isu program as one Python module: a header naming its source, the
//! runtime, the function, and the tables the runtime reads (which step each
//! line belongs to, the arguments' types).

use crate::facts::Facts;
use crate::lower::{invalid, Gen, R};
use crate::writer::Writer;
use crate::{names, pytype, structs, text};
use isu_plugin_api::{Lowering, Program, RuntimeCode, IIR_FORMAT};

/// The lint rules (ruff's) whose advice would change the program's shape
/// rather than the code's: merging nested IFs, rewriting an IF or an
/// `(if ...)` as `max()`, `min()`, `or`, `dict.get()` or a returned
/// condition, chaining comparisons, folding what
/// the program spells out; and SIM113 (`enumerate()` for a counter), which
/// takes the size a variable holds (lower/memory.rs), grown by one for each
/// element pushed in a loop, for a loop index; and RUF023 (sorted
/// `__slots__`), since a struct's slots are its fields in the order `TYPES`
/// declares them (structs.rs). RUF100 (an exemption this program does not
/// need) goes with them, since which of them a given program triggers
/// varies.
const LINT_EXEMPT: &[&str] = &[
    "SIM102", "SIM103", "SIM113", "SIM220", "SIM221", "SIM222", "SIM223", "SIM401", "PLR0124",
    "PLR0133", "PLR1716", "PLR1730", "PLW0127", "PLE0643", "FURB110", "FURB136", "FURB192",
    "SIM210", "SIM211", "RUF023", "RUF034", "RUF100",
];

/// The runtime every module starts with.
pub const RUNTIME: &str = include_str!("runtime.py");

/// The line of [`RUNTIME`] where the table of runtime error codes goes.
const CODES_MARK: &str = "# @runtime-codes";

/// The line of [`RUNTIME`] where the import the struct classes need goes,
/// in a module whose program declares structs.
const STRUCTS_MARK: &str = "# @struct-import";

/// `class _Code` with every runtime error code (`_Code.INT_OVERFLOW` is
/// `"int_overflow"`), and the codes a run can stop with, from the
/// language's table, so the runtime never spells a code itself.
fn runtime_codes(w: &mut Writer) {
    w.raw("class _Code:");
    w.raw("    \"\"\"The runtime error codes (spec/errors.md).\"\"\"");
    w.blank();
    for c in RuntimeCode::ALL {
        w.raw(format!(
            "    {} = {}",
            code_name(*c),
            text::py_str(c.as_str())
        ));
    }
    w.blank();
    w.blank();
    w.raw("# The codes a run of the program can stop with (and a pack function raise).");
    let program: Vec<String> = RuntimeCode::program_errors()
        .map(|c| format!("_Code.{}", code_name(c)))
        .collect();
    w.raw(format!(
        "_RUNTIME_CODES = frozenset(({},))",
        program.join(", ")
    ));
}

/// `INT_OVERFLOW` for `int_overflow`.
pub fn code_name(c: RuntimeCode) -> String {
    c.as_str().to_ascii_uppercase()
}

/// Python refuses more than 100 levels of indentation and 200 of brackets;
/// a program nested deeper than this (far beyond any real one) is refused.
const MAX_INDENT: usize = 90;
const MAX_BRACKETS: usize = 180;

/// The Python module of a canonical, validated program, with the
/// definitions of the pack functions it calls.
pub fn module(program: &Program, lowerings: &[Lowering]) -> R<String> {
    check_names(program)?;
    let func = &program.func.name.name;
    let py_name = names::function(func);
    let mut w = Writer::default();
    w.raw(format!(
        "# {py_name}.py: the Isu function `{}`, compiled by Isu's Python backend",
        text::comment(func)
    ));
    w.raw(format!(
        "# (isu_backend_python {}) from {IIR_FORMAT} IIR. Generated: edit the Isu",
        env!("CARGO_PKG_VERSION")
    ));
    w.raw("# program, not this file.");
    w.raw(format!(
        "# Run: python3 {py_name}.py [--max-steps N] [--max-size N] [--max-memory N] < ARGS.json"
    ));
    w.raw(format!(
        "# Use: from {py_name} import {py_name}, run, IsuError"
    ));
    w.raw("# Each step of the program is a comment `# ID: KIND \"description\"` above the");
    w.raw("# code it became, and stays a statement of its own: the linter's advice to");
    w.raw("# merge or rewrite statements, or to simplify what the program literally says");
    w.raw("# (a comparison of two constants, `x or True`), does not apply to this file.");
    w.raw(format!("# ruff: noqa: {}", LINT_EXEMPT.join(", ")));
    let limits = isu_plugin_api::ExecLimits::DEFAULT;
    for line in RUNTIME.lines() {
        if line.starts_with(CODES_MARK) {
            runtime_codes(&mut w);
        } else if line.starts_with(STRUCTS_MARK) {
            if !program.types.is_empty() {
                w.raw(structs::IMPORT);
            }
        } else {
            w.raw(
                line.replace("@MAX_STEPS@", &limits.max_steps.to_string())
                    .replace("@MAX_SIZE@", &limits.max_size.to_string())
                    .replace("@MAX_MEMORY@", &limits.max_memory.to_string()),
            );
        }
    }
    let mut packs: Vec<&Lowering> = lowerings.iter().collect();
    packs.sort_by(|a, b| a.function.cmp(&b.function));
    for l in &packs {
        w.blank();
        w.blank();
        w.raw(format!(
            "# The pack function {}, as its pack defines it for Python.",
            text::comment(&l.function)
        ));
        for line in l.source.trim_end().lines() {
            w.raw(line);
        }
    }
    w.blank();
    w.blank();
    w.raw("# ---------------------------------------------------------------------------");
    w.raw(format!("# FUNC {}", text::comment(&signature(program))));
    for (input, output) in program.io.input.iter().zip(&program.io.output) {
        w.raw(format!(
            "# IO: {} => {}",
            text::comment(&input.value.to_string()),
            text::comment(&output.value.to_string())
        ));
    }
    let facts = Facts::of(program)?;
    let pack_names = packs
        .iter()
        .map(|l| {
            let name = names::pack_function(&l.function);
            let limited = takes_max_size(&l.source, &name);
            (name, limited)
        })
        .collect();
    let mut gen = Gen::new(facts, w, pack_names);
    structs::classes(&program.types, &mut gen.copies, &mut gen.w);
    if !program.types.is_empty() {
        gen.w.blank();
        gen.w.blank();
    }
    gen.function(program)?;
    let Gen {
        facts,
        copies,
        w,
        mem,
        ..
    } = gen;
    let mut w = w;
    if w.deepest() > MAX_INDENT {
        return Err(too_deep("indentation"));
    }
    for line in copies.definitions() {
        w.raw(line);
    }
    w.blank();
    w.blank();
    let renamed: Vec<String> = facts
        .vars
        .iter()
        .filter(|(name, v)| **name != v.py)
        .map(|(name, v)| format!("{}: {}", text::py_str(&v.py), text::py_str(name)))
        .collect();
    w.raw("# Isu names the function's variables had to change.");
    w.raw(format!("_NAMES = {{{}}}", renamed.join(", ")));
    w.raw(format!("_FUNC_NAME = {}", text::py_str(func)));
    let pack_set: Vec<String> = packs
        .iter()
        .map(|l| text::py_str(&names::pack_function(&l.function)))
        .collect();
    w.raw(format!(
        "_PACK_FUNCTIONS = {}",
        if pack_set.is_empty() {
            "frozenset()".to_owned()
        } else {
            format!("frozenset(({},))", pack_set.join(", "))
        }
    ));
    let args: Vec<String> = program
        .func
        .args
        .iter()
        .map(|d| {
            format!(
                "({}, {})",
                text::py_str(&d.name.name),
                pytype::descriptor(&d.ty)
            )
        })
        .collect();
    w.raw(format!("_ARGS = ({})", tuple(&args)));
    w.raw(format!(
        "_RETURNS = {}",
        pytype::descriptor(&program.func.returns)
    ));
    w.raw(structs::table(&program.types));
    w.raw(format!("_ENTRY = {py_name}"));
    w.raw(format!(
        "_COUNTS_MEMORY = {}",
        if mem.counts { "True" } else { "False" }
    ));
    w.blank();
    w.raw("if __name__ == \"__main__\":");
    w.raw("    _main()");
    let out = w.finish();
    if bracket_depth(&out) > MAX_BRACKETS {
        return Err(too_deep("bracket nesting"));
    }
    Ok(out)
}

/// `sum_evens(xs: int[]) -> int`.
fn signature(program: &Program) -> String {
    let args: Vec<String> = program
        .func
        .args
        .iter()
        .map(|d| format!("{}: {}", d.name.name, d.ty))
        .collect();
    format!(
        "{}({}) -> {}",
        program.func.name.name,
        args.join(", "),
        program.func.returns
    )
}

/// `(a,)` or `(a, b)`.
fn tuple(items: &[String]) -> String {
    match items {
        [one] => format!("{one},"),
        _ => items.join(", "),
    }
}

fn check_names(program: &Program) -> R<()> {
    let all = std::iter::once(&program.func.name.name)
        .chain(program.func.args.iter().map(|d| &d.name.name))
        .chain(program.state.iter().map(|s| &s.name.name))
        .chain(program.locals.iter().map(|d| &d.name.name))
        .chain(program.types.iter().flat_map(|t| {
            std::iter::once(&t.name.name).chain(t.fields.iter().map(|f| &f.name.name))
        }));
    for name in all {
        if !names::is_word(name) {
            return Err(invalid(format!("`{name}` is not an Isu name")));
        }
    }
    Ok(())
}

fn too_deep(what: &str) -> isu_plugin_api::PluginDiagnostic {
    isu_plugin_api::PluginDiagnostic::backend(
        isu_plugin_api::BackendCode::UnsupportedFeature,
        format!("the program's {what} is deeper than Python accepts"),
    )
    .with_hint("split deeply nested expressions or blocks with LOCAL variables")
}

/// The deepest nesting of brackets in Python source, outside strings and
/// comments (the generated code's strings are all double-quoted).
fn bracket_depth(src: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut in_str = false;
    let mut in_comment = false;
    let mut escaped = false;
    for c in src.chars() {
        if in_comment {
            in_comment = c != '\n';
        } else if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
        } else {
            match c {
                '#' => in_comment = true,
                '"' => in_str = true,
                '(' | '[' | '{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    deepest
}

/// Whether the definition `def NAME(...)` in `source` takes the run's size
/// limit: its last parameter is named `max_size` (`spec/plugin-abi.md`,
/// "Lowerings for Python").
fn takes_max_size(source: &str, name: &str) -> bool {
    let Some(start) = source.find(&format!("def {name}(")) else {
        return false;
    };
    let params = &source[start + name.len() + 5..];
    let Some(end) = params.find(')') else {
        return false;
    };
    params[..end]
        .split(',')
        .map(str::trim)
        .rfind(|p| !p.is_empty())
        .and_then(|p| p.split([':', '=']).next())
        .is_some_and(|p| p.trim() == "max_size")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_limits_are_written_in_from_the_one_constant() {
        let d = isu_plugin_api::ExecLimits::DEFAULT;
        let p = isu_plugin_api::build::program(
            "f",
            &[],
            isu_plugin_api::Type::Int,
            vec![],
            &[],
            vec![isu_plugin_api::build::ret(
                "S1",
                isu_plugin_api::build::int(1),
            )],
        );
        let text = module(&p, &[]).unwrap_or_default();
        assert!(
            text.contains(&format!("\nMAX_STEPS = {}\n", d.max_steps)),
            "{text}"
        );
        assert!(text.contains(&format!("\nMAX_SIZE = {}\n", d.max_size)));
        assert!(text.contains(&format!("\nMAX_MEMORY = {}\n", d.max_memory)));
        assert!(!text.contains("@MAX_"));
    }

    #[test]
    fn a_definition_takes_the_size_limit_when_its_last_parameter_is_max_size() {
        let yes = "def text__PAD_LEFT(s, width, fill, max_size):\n    return s\n";
        assert!(takes_max_size(yes, "text__PAD_LEFT"));
        let typed = "def ns__F(\n    s: str,\n    max_size: int = 5,\n) -> str:\n    return s\n";
        assert!(takes_max_size(typed, "ns__F"));
        assert!(!takes_max_size(
            "def ns__F(max_size, s):\n    return s\n",
            "ns__F"
        ));
        assert!(!takes_max_size("def ns__F(s):\n    return s\n", "ns__F"));
        assert!(!takes_max_size(
            "def ns__G(max_size):\n    return 1\n",
            "ns__F"
        ));
        assert!(!takes_max_size("def ns__F():\n    return 1\n", "ns__F"));
    }

    #[test]
    fn brackets_are_counted_outside_strings_and_comments() {
        assert_eq!(bracket_depth("f((a), [b])\n"), 2);
        assert_eq!(bracket_depth("x = \"(((\\\"(\" # ((((\ny = (1)\n"), 1);
    }
}
