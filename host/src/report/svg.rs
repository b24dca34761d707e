//! Bar charts as inline SVG: columns over labelled categories (a
//! histogram), and one labelled row a bar. Coordinates are whole pixels, so
//! that the same figures give the same markup.

use super::html::Esc;
use std::fmt::Write as _;

/// One bar: its label and its value.
#[derive(Debug, Clone)]
pub struct Bar {
    pub label: String,
    pub value: u64,
}

/// The height of a bar of `value` when `max` is `full` pixels.
fn scaled(value: u64, max: u64, full: u64) -> u64 {
    value.saturating_mul(full).checked_div(max).unwrap_or(0)
}

/// The longest label shown whole; longer ones are cut, and shown whole in
/// the bar's tooltip.
const LABEL_CHARS: usize = 22;

fn short(label: &str) -> String {
    if label.chars().count() <= LABEL_CHARS {
        return label.to_owned();
    }
    let cut: String = label.chars().take(LABEL_CHARS - 1).collect();
    format!("{cut}…")
}

/// A histogram: a column for each bar, its value above it and its label
/// below. `class` names the chart, `title` says what it shows.
pub fn columns(out: &mut String, class: &str, title: &str, bars: &[Bar]) {
    const PLOT: u64 = 160;
    const TOP: u64 = 24;
    const STEP: u64 = 64;
    const WIDTH: u64 = 44;
    let width = 24 + STEP * bars.len().max(1) as u64;
    let height = TOP + PLOT + 28;
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0);
    let _ = writeln!(
        out,
        "<svg class=\"chart {class}\" role=\"img\" aria-label=\"{t}\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">\n<title>{t}</title>",
        t = Esc(title)
    );
    let base = TOP + PLOT;
    let _ = writeln!(
        out,
        "<line class=\"axis\" x1=\"12\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\"/>",
        width - 12
    );
    for (i, b) in bars.iter().enumerate() {
        let h = scaled(b.value, max, PLOT);
        let x = 24 + STEP * i as u64;
        let _ = writeln!(
            out,
            "<g class=\"bar\"><title>{label}: {v}</title><rect x=\"{x}\" y=\"{y}\" width=\"{WIDTH}\" height=\"{h}\"/><text class=\"value\" x=\"{cx}\" y=\"{vy}\" text-anchor=\"middle\">{v}</text><text class=\"label\" x=\"{cx}\" y=\"{ly}\" text-anchor=\"middle\">{short}</text></g>",
            label = Esc(&b.label),
            v = b.value,
            y = base - h,
            cx = x + WIDTH / 2,
            vy = base - h - 6,
            ly = base + 18,
            short = Esc(&short(&b.label)),
        );
    }
    out.push_str("</svg>\n");
}

/// Horizontal bars, one a row: the label on the left, the value after the
/// bar.
pub fn rows(out: &mut String, class: &str, title: &str, bars: &[Bar]) {
    const LABELS: u64 = 180;
    const PLOT: u64 = 380;
    const ROW: u64 = 22;
    let width = LABELS + PLOT + 80;
    let height = 12 + ROW * bars.len().max(1) as u64;
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0);
    let _ = writeln!(
        out,
        "<svg class=\"chart {class}\" role=\"img\" aria-label=\"{t}\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">\n<title>{t}</title>",
        t = Esc(title)
    );
    for (i, b) in bars.iter().enumerate() {
        let y = 6 + ROW * i as u64;
        let w = scaled(b.value, max, PLOT);
        let _ = writeln!(
            out,
            "<g class=\"bar\"><title>{label}: {v}</title><text class=\"label\" x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{short}</text><rect x=\"{LABELS}\" y=\"{ry}\" width=\"{w}\" height=\"{rh}\"/><text class=\"value\" x=\"{vx}\" y=\"{ty}\">{v}</text></g>",
            label = Esc(&b.label),
            v = b.value,
            lx = LABELS - 8,
            ty = y + 15,
            ry = y + 3,
            rh = ROW - 6,
            vx = LABELS + w + 6,
            short = Esc(&short(&b.label)),
        );
    }
    out.push_str("</svg>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_and_labels_are_escaped() {
        let bars = vec![
            Bar {
                label: "1".into(),
                value: 4,
            },
            Bar {
                label: "<never>".into(),
                value: 1,
            },
        ];
        let mut out = String::new();
        columns(&mut out, "histogram", "rounds", &bars);
        assert!(out.contains("height=\"160\""), "{out}");
        assert!(out.contains("height=\"40\""), "{out}");
        assert!(
            out.contains("&lt;never&gt;") && !out.contains("<never>"),
            "{out}"
        );
        let mut out = String::new();
        rows(&mut out, "tokens", "tokens", &bars);
        assert!(out.contains("width=\"380\""), "{out}");
        assert!(out.contains("width=\"95\""), "{out}");
        assert_eq!(
            short("abcdefghijklmnopqrstuvwxyz"),
            "abcdefghijklmnopqrstu…"
        );
        // No bars, no values: an empty chart, no division by zero.
        let mut out = String::new();
        columns(&mut out, "histogram", "rounds", &[]);
        assert!(out.ends_with("</svg>\n"));
        assert_eq!(scaled(3, 0, 100), 0);
    }
}
