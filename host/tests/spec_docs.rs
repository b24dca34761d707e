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

const BEGIN: &str = "<!-- codes: generated from host/src/diag.rs; ISU_BLESS=1 cargo test --test spec_docs rewrites it -->\n";
const END: &str = "<!-- end of codes -->\n";

#[test]
fn errors_md_lists_every_code() {
    let path = spec("errors.md");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
        panic!("spec/errors.md lacks the generated-codes markers");
    };
    let current = &text[b + BEGIN.len()..e];
    let wanted = codes_tables();
    if snapshot::blessing() {
        let new = format!("{}{}{}", &text[..b + BEGIN.len()], wanted, &text[e..]);
        std::fs::write(&path, new).unwrap_or_else(|e| panic!("writing errors.md: {e}"));
        return;
    }
    assert!(
        current == wanted,
        "spec/errors.md is out of date:\n{}",
        snapshot::line_diff(current, &wanted)
    );
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
    let wanted = format!("the defaults are {} and {}", d.max_steps, d.max_size);
    assert!(
        read("wasm-abi.md").contains(&wanted),
        "spec/wasm-abi.md lacks {wanted}"
    );
}
