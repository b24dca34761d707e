//! Golden files: compare with a file beside the case, or (re)write it when
//! `ISU_BLESS=1` is set. Review blessed files as diffs.

use std::path::Path;

/// Whether this run rewrites golden files instead of comparing with them.
pub fn blessing() -> bool {
    std::env::var_os("ISU_BLESS").is_some_and(|v| v == "1")
}

/// Checks that `actual` equals the golden file at `path` (or writes it when
/// blessing). A missing golden file fails with the text it should hold.
pub fn check(path: &Path, actual: &str) -> Result<(), String> {
    if blessing() {
        return std::fs::write(path, actual)
            .map_err(|e| format!("writing {}: {e}", path.display()));
    }
    let expected = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "cannot read golden file {} ({e}); run with ISU_BLESS=1 to create it. It would hold:\n{actual}",
            path.display()
        )
    })?;
    if expected == actual {
        Ok(())
    } else {
        Err(format!(
            "{} differs (ISU_BLESS=1 rewrites it after review)\n{}",
            path.display(),
            line_diff(&expected, actual)
        ))
    }
}

/// A plain line diff: the first lines that differ, with their numbers.
pub fn line_diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            out.push_str(&format!(
                "line {}:\n  - {}\n  + {}\n",
                i + 1,
                x.unwrap_or(&"<none>"),
                y.unwrap_or(&"<none>")
            ));
            shown += 1;
            if shown == 8 {
                out.push_str("  ...\n");
                break;
            }
        }
    }
    out
}
