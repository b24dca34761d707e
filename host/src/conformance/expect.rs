//! A backend's expectation file: the conformance cases it does not support
//! and those it is known to fail, checked in beside the backend, so that its
//! coverage cannot shrink silently. A case newly failing or newly
//! unsupported, and a listed case that now passes (or no longer exists),
//! are each a difference; `isu conformance --expect FILE` and the backend's
//! own tests fail on any.
//!
//! The file is TOML:
//!
//! ```toml
//! unsupported = ["each_map_keys", "std_maps"]
//! failing = []
//! ```

use super::{Report, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The cases a backend is expected not to run, or to fail.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// Cases reported unsupported (it lacks a feature they need).
    #[serde(default)]
    pub unsupported: Vec<String>,
    /// Cases it runs and gets wrong, known and accepted for now.
    #[serde(default)]
    pub failing: Vec<String>,
}

impl Expectations {
    /// Reads the text of an expectation file.
    pub fn parse(text: &str) -> Result<Expectations, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// What `report` found, as expectations (to bless a file with).
    pub fn of(report: &Report) -> Expectations {
        let names = |pick: fn(&Verdict) -> bool| -> Vec<String> {
            report
                .cases_where(pick)
                .into_iter()
                .map(str::to_owned)
                .collect()
        };
        Expectations {
            unsupported: names(|v| matches!(v, Verdict::Unsupported(_))),
            failing: names(|v| matches!(v, Verdict::Failed(_))),
        }
    }

    /// The file's text, with a header saying what it is for `executor`.
    pub fn to_text(&self, executor: &str) -> String {
        let mut out = format!(
            "# The conformance cases the `{executor}` backend does not run (unsupported)\n\
             # or is known to get wrong (failing). Its tests and\n\
             # `isu conformance --target {executor} --expect FILE` fail when the results\n\
             # differ from this file; `--bless` (ISU_BLESS=1 for the tests) rewrites it\n\
             # from the results.\n\n"
        );
        for (key, names) in [
            ("unsupported", &self.unsupported),
            ("failing", &self.failing),
        ] {
            if names.is_empty() {
                let _ = writeln!(out, "{key} = []");
                continue;
            }
            let _ = writeln!(out, "{key} = [");
            for n in names {
                let _ = writeln!(out, "  {n:?},");
            }
            let _ = writeln!(out, "]");
        }
        out
    }

    /// Every way `report` differs from these expectations, one sentence each.
    pub fn differences(&self, report: &Report) -> Vec<String> {
        let listed_unsupported = |n: &str| self.unsupported.iter().any(|u| u == n);
        let listed_failing = |n: &str| self.failing.iter().any(|u| u == n);
        let mut out = Vec::new();
        for (name, verdict) in &report.verdicts {
            match verdict {
                Verdict::Passed if listed_unsupported(name) => out.push(format!(
                    "{name} now passes but is listed as unsupported: remove it from `unsupported`"
                )),
                Verdict::Passed if listed_failing(name) => out.push(format!(
                    "{name} now passes but is listed as failing: remove it from `failing`"
                )),
                Verdict::Passed => {}
                Verdict::Failed(fs) if !listed_failing(name) => {
                    let first = fs.first().map(ToString::to_string).unwrap_or_default();
                    out.push(format!("{name} fails: {first}"));
                }
                Verdict::Failed(_) => {}
                Verdict::Unsupported(u) if !listed_unsupported(name) => out.push(format!(
                    "{name} is unsupported ({}), which shrinks coverage: list it under `unsupported` if that is meant",
                    u.reason
                )),
                Verdict::Unsupported(_) => {}
            }
        }
        for name in self.unsupported.iter().chain(&self.failing) {
            if !report.verdicts.iter().any(|(n, _)| n == name) {
                out.push(format!("{name} is listed, but there is no such case"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{Failure, Unsupported};

    fn report(verdicts: Vec<(&str, Verdict)>) -> Report {
        Report::new(
            "b",
            verdicts
                .into_iter()
                .map(|(n, v)| (n.to_owned(), v))
                .collect(),
        )
    }

    fn unsupported(case: &str) -> Verdict {
        Verdict::Unsupported(Unsupported {
            case: case.into(),
            features: vec!["map".into()],
            reason: "needs map".into(),
        })
    }

    fn failed(case: &str) -> Verdict {
        Verdict::Failed(vec![Failure {
            case: case.into(),
            line: 2,
            args: "{}".into(),
            expected: "1".into(),
            got: "2".into(),
        }])
    }

    #[test]
    fn expectations_round_trip_through_their_text() {
        let e = Expectations {
            unsupported: vec!["a".into(), "b".into()],
            failing: vec![],
        };
        let text = e.to_text("toy");
        assert!(text.starts_with("# The conformance cases the `toy` backend"));
        assert_eq!(Expectations::parse(&text), Ok(e));
        assert!(Expectations::parse("unsupported = [1]").is_err());
        assert!(Expectations::parse("skipped = []").is_err());
    }

    #[test]
    fn every_difference_is_named() {
        let r = report(vec![
            ("same_pass", Verdict::Passed),
            ("same_unsupported", unsupported("same_unsupported")),
            ("same_failing", failed("same_failing")),
            ("new_failure", failed("new_failure")),
            ("new_unsupported", unsupported("new_unsupported")),
            ("was_unsupported", Verdict::Passed),
            ("was_failing", Verdict::Passed),
        ]);
        let e = Expectations {
            unsupported: vec![
                "same_unsupported".into(),
                "was_unsupported".into(),
                "gone".into(),
            ],
            failing: vec!["same_failing".into(), "was_failing".into()],
        };
        let diffs = e.differences(&r);
        let starts: Vec<&str> = diffs
            .iter()
            .map(|d| d.split(' ').next().unwrap_or(""))
            .collect();
        assert_eq!(
            starts,
            [
                "new_failure",
                "new_unsupported",
                "was_unsupported",
                "was_failing",
                "gone"
            ],
            "{diffs:#?}"
        );
        assert!(diffs[0].contains("line 2"), "{}", diffs[0]);
        assert!(diffs[1].contains("needs map"), "{}", diffs[1]);
        assert_eq!(Expectations::of(&r).differences(&r), Vec::<String>::new());
    }
}
