//! The reports of a conformance run as JUnit XML, the format CI systems
//! read: one `<testsuite>` per executor, one `<testcase>` per case, a
//! `<failure>` for a failed case and `<skipped>` for an unsupported one.
//! The text is deterministic (no times, no host names).

use super::{Report, Verdict};
use std::fmt::Write as _;

/// Text escaped for an XML attribute or element.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// The reports as one JUnit XML document.
pub fn junit(reports: &[Report]) -> String {
    let count = |f: fn(&Report) -> usize| reports.iter().map(f).sum::<usize>();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"isu conformance\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">",
        count(|r| r.verdicts.len()),
        count(|r| r.failed),
        count(|r| r.unsupported),
    );
    for r in reports {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">",
            escape(&r.executor),
            r.verdicts.len(),
            r.failed,
            r.unsupported
        );
        let class = escape(&format!("conformance.{}", r.executor));
        for (name, verdict) in &r.verdicts {
            let head = format!(
                "    <testcase classname=\"{class}\" name=\"{}\"",
                escape(name)
            );
            match verdict {
                Verdict::Passed => {
                    let _ = writeln!(out, "{head}/>");
                }
                Verdict::Failed(fs) => {
                    let message = match fs.as_slice() {
                        [one] => one.to_string().lines().next().unwrap_or("").to_owned(),
                        many => format!("{} runs failed", many.len()),
                    };
                    let text: Vec<String> = fs.iter().map(ToString::to_string).collect();
                    let _ = writeln!(out, "{head}>");
                    let _ = writeln!(
                        out,
                        "      <failure message=\"{}\">{}</failure>",
                        escape(&message),
                        escape(&text.join("\n"))
                    );
                    let _ = writeln!(out, "    </testcase>");
                }
                Verdict::Unsupported(u) => {
                    let _ = writeln!(out, "{head}>");
                    let _ = writeln!(
                        out,
                        "      <skipped message=\"unsupported: {}\"/>",
                        escape(&u.reason)
                    );
                    let _ = writeln!(out, "    </testcase>");
                }
            }
        }
        let _ = writeln!(out, "  </testsuite>");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{Failure, Unsupported};

    #[test]
    fn reports_become_junit_with_failures_and_skips() {
        let verdicts = vec![
            ("ok".to_owned(), Verdict::Passed),
            (
                "bad".to_owned(),
                Verdict::Failed(vec![Failure {
                    case: "bad".into(),
                    line: 3,
                    args: "{\"s\": \"<a&b>\"}".into(),
                    expected: "1".into(),
                    got: "2".into(),
                }]),
            ),
            (
                "maps".to_owned(),
                Verdict::Unsupported(Unsupported {
                    case: "maps".into(),
                    features: vec!["map".into()],
                    reason: "needs map".into(),
                }),
            ),
        ];
        let report = Report::new("toy", verdicts);
        let xml = junit(&[report]);
        assert_eq!(
            xml,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <testsuites name=\"isu conformance\" tests=\"3\" failures=\"1\" skipped=\"1\">\n\
             \x20 <testsuite name=\"toy\" tests=\"3\" failures=\"1\" skipped=\"1\">\n\
             \x20   <testcase classname=\"conformance.toy\" name=\"ok\"/>\n\
             \x20   <testcase classname=\"conformance.toy\" name=\"bad\">\n\
             \x20     <failure message=\"bad line 3: {&quot;s&quot;: &quot;&lt;a&amp;b&gt;&quot;}\">bad line 3: {&quot;s&quot;: &quot;&lt;a&amp;b&gt;&quot;}\n\
             \x20 expected: 1\n\
             \x20 got:      2</failure>\n\
             \x20   </testcase>\n\
             \x20   <testcase classname=\"conformance.toy\" name=\"maps\">\n\
             \x20     <skipped message=\"unsupported: needs map\"/>\n\
             \x20   </testcase>\n\
             \x20 </testsuite>\n\
             </testsuites>\n"
        );
        assert_eq!(escape("a\u{1}b"), "a\\u{1}b");
    }
}
