//! The documents in `spec/` that restate tables of the code stay in step with them.

mod common;

use common::snapshot;
use isu_host::diag::{Code, Kind};
use std::path::Path;

fn spec(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spec")
        .join(name)
}

/// The generated part of `spec/errors.md`: one table of codes per kind.
fn codes_tables() -> String {
    let mut out = String::new();
    for &kind in Kind::ALL {
        out.push_str(&format!(
            "### {} (exit code {})\n\n| code | meaning |\n| --- | --- |\n",
            kind.as_str(),
            kind.exit_code()
        ));
        for code in Code::ALL.iter().filter(|c| c.kind() == kind) {
            out.push_str(&format!("| `{}` | {} |\n", code.as_str(), code.summary()));
        }
        out.push('\n');
    }
    out
}

/// Checks (or, blessing, rewrites) the part of `spec/NAME` between the
/// markers `<!-- WHAT: generated from SOURCE; ... -->` and
/// `<!-- end of WHAT -->`.
fn generated_section(name: &str, what: &str, source: &str, wanted: &str) {
    let begin = format!(
        "<!-- {what}: generated from {source}; ISU_BLESS=1 cargo test --test spec_docs rewrites it -->\n"
    );
    let end = format!("<!-- end of {what} -->\n");
    let path = spec(name);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (Some(b), Some(e)) = (text.find(&begin), text.find(&end)) else {
        panic!("spec/{name} lacks the markers of the generated {what}");
    };
    let current = &text[b + begin.len()..e];
    if snapshot::blessing() {
        let new = format!("{}{}{}", &text[..b + begin.len()], wanted, &text[e..]);
        std::fs::write(&path, new).unwrap_or_else(|e| panic!("writing {name}: {e}"));
        return;
    }
    assert!(
        current == wanted,
        "spec/{name} is out of date:\n{}",
        snapshot::line_diff(current, wanted)
    );
}

#[test]
fn errors_md_lists_every_code() {
    generated_section("errors.md", "codes", "host/src/diag.rs", &codes_tables());
}

#[test]
fn plugin_abi_md_lists_every_backend_code_and_feature() {
    use isu_plugin_api::{feature_set, BackendCode};
    let mut codes =
        String::from("\n| code | meaning | a case it stops is |\n| --- | --- | --- |\n");
    for c in BackendCode::ALL {
        let verdict = if c.is_unsupported() {
            "unsupported"
        } else {
            "failed"
        };
        codes.push_str(&format!("| `{c}` | {} | {verdict} |\n", c.summary()));
    }
    codes.push('\n');
    generated_section(
        "plugin-abi.md",
        "backend codes",
        "plugin-api/src/backend_codes.rs",
        &codes,
    );
    let mut features = String::from("\n| feature | since vocabulary version |\n| --- | --- |\n");
    for (name, version) in feature_set::FEATURES {
        features.push_str(&format!("| `{name}` | {version} |\n"));
    }
    features.push('\n');
    generated_section(
        "plugin-abi.md",
        "features",
        "lang/src/feature_set.rs",
        &features,
    );
}

#[test]
fn semantics_md_lists_the_work_of_every_standard_function() {
    use isu_plugin_api::{stdlib::STDLIB, work};
    let mut table = String::from("\n| call | spends |\n| --- | --- |\n");
    for f in STDLIB {
        table.push_str(&format!(
            "| `{}` | {} |\n",
            f.name,
            work::of(f.builtin).describe()
        ));
    }
    table.push_str(&format!(
        "| `eq`, `ne`, `lt`, `le`, `gt`, `ge` (operands as arguments) | {} |\n",
        work::COMPARISON.describe()
    ));
    table.push_str(&format!(
        "| `(index M K)` on a map (`K` as argument 2) | {} |\n",
        work::of(isu_plugin_api::Builtin::MapGet).describe()
    ));
    table.push('\n');
    generated_section("semantics.md", "work", "lang/src/work.rs", &table);
}

/// `10,000,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn the_default_limits_in_the_specs_are_those_of_the_code() {
    let d = isu_plugin_api::ExecLimits::DEFAULT;
    let read = |name: &str| std::fs::read_to_string(spec(name)).unwrap_or_default();
    let semantics = read("semantics.md");
    for wanted in [
        format!("(`max_steps`, default {})", grouped(d.max_steps)),
        format!("(`max_size`, default {})", grouped(d.max_size)),
    ] {
        assert!(
            semantics.contains(&wanted),
            "spec/semantics.md lacks {wanted}"
        );
    }
    let wanted = format!(
        "the defaults are {}, {} and {}",
        d.max_steps, d.max_size, d.max_memory
    );
    assert!(
        read("wasm-abi.md").contains(&wanted),
        "spec/wasm-abi.md lacks {wanted}"
    );
}
