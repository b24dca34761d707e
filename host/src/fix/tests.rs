#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::*;
use crate::diag::Location;

fn edit(start: u32, end: u32, text: &str) -> Edit {
    Edit {
        span: Location {
            line: 1,
            column: start + 1,
            start,
            end,
        },
        replacement: text.to_owned(),
    }
}

#[test]
fn edits_apply_in_place_of_their_spans() {
    let text = "abcdef";
    let out = apply_edits(text, &[edit(4, 5, "E"), edit(0, 1, "AA"), edit(2, 2, "+")]);
    assert_eq!(out.as_deref(), Some("AAb+cdEf"));
    assert_eq!(apply_edits(text, &[edit(5, 9, "x")]), None);
    assert_eq!(
        apply_edits("é", &[edit(1, 1, "x")]),
        None,
        "inside a character"
    );
}

#[test]
fn overlapping_edits_are_not_taken_together() {
    assert!(overlap(&edit(0, 3, ""), &edit(2, 4, "")));
    assert!(!overlap(&edit(0, 2, ""), &edit(2, 4, "")));
    assert!(overlap(&edit(2, 2, "a"), &edit(2, 2, "b")));
    assert!(overlap(&edit(2, 2, "a"), &edit(1, 3, "b")));
    assert!(!overlap(&edit(2, 2, "a"), &edit(2, 4, "b")));
}
