//! Positions as the client counts them, at the server's edge: a line and a
//! character offset in the encoding the two agreed on (UTF-16 code units by
//! default, UTF-8 bytes or UTF-32 code points when the client offers them),
//! to and from the byte offsets every other part of Isu uses.
//!
//! Lines end as the protocol says, at `\n`, `\r\n` or a lone `\r` (a lone
//! `\r` is a ParseError of Isu, but the client still counts it as a line
//! end). A position past the end of its line is the line's end; a line past
//! the last is the end of the text; a character offset inside a character
//! (half of a UTF-16 surrogate pair) is the start of that character.

use lsp_types::{Position, PositionEncodingKind, Range};

/// How the client counts characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

impl Encoding {
    /// The encoding to use among those the client offers (UTF-16 when it
    /// offers none): UTF-8 first, Isu's own, then UTF-32, then UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        let offered = offered.unwrap_or_default();
        let has = |k: &PositionEncodingKind| offered.contains(k);
        if has(&PositionEncodingKind::UTF8) {
            Encoding::Utf8
        } else if has(&PositionEncodingKind::UTF32) {
            Encoding::Utf32
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    fn units(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
            Encoding::Utf32 => 1,
        }
    }
}

/// Where the lines of a text start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// The byte offset of the start of each line.
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i as u32 + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i as u32 + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { starts }
    }

    /// The bytes of line `line` without its line end.
    fn line(&self, text: &str, line: usize) -> (usize, usize) {
        let start = self.starts[line] as usize;
        let mut end = self
            .starts
            .get(line + 1)
            .map_or(text.len(), |&s| s as usize);
        let bytes = text.as_bytes();
        if end > start && bytes.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && bytes.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        (start, end)
    }

    /// The position of byte `offset` (past the end: the end).
    pub fn position(&self, text: &str, offset: u32, enc: Encoding) -> Position {
        let mut offset = (offset as usize).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.starts[line] as usize;
        let character = text[start..offset].chars().map(|c| enc.units(c)).sum();
        Position {
            line: line as u32,
            character,
        }
    }

    /// The range of the bytes `lo..hi`.
    pub fn range(&self, text: &str, lo: u32, hi: u32, enc: Encoding) -> Range {
        Range {
            start: self.position(text, lo, enc),
            end: self.position(text, hi.max(lo), enc),
        }
    }

    /// The byte offset of `pos`, clamped into the text as the module says.
    pub fn offset(&self, text: &str, pos: Position, enc: Encoding) -> u32 {
        let Some(line) = self
            .starts
            .get(pos.line as usize)
            .map(|_| pos.line as usize)
        else {
            return text.len() as u32;
        };
        let (start, end) = self.line(text, line);
        let mut units = 0u32;
        for (i, c) in text[start..end].char_indices() {
            let next = units + enc.units(c);
            if next > pos.character {
                return (start + i) as u32;
            }
            units = next;
        }
        end as u32
    }

    /// The range of the whole text.
    pub fn whole(&self, text: &str, enc: Encoding) -> Range {
        self.range(text, 0, text.len() as u32, enc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf16_counts_surrogate_pairs_as_two() {
        // "é" is 2 bytes, 1 unit; "😀" 4 bytes, 2 UTF-16 units.
        let text = "a\n\"é😀x\"\n";
        let ix = LineIndex::new(text);
        let x = text.find('x').unwrap_or_default() as u32;
        assert_eq!(ix.position(text, x, Encoding::Utf16), pos(1, 4));
        assert_eq!(ix.position(text, x, Encoding::Utf8), pos(1, 7));
        assert_eq!(ix.position(text, x, Encoding::Utf32), pos(1, 3));
        assert_eq!(ix.offset(text, pos(1, 4), Encoding::Utf16), x);
        assert_eq!(ix.offset(text, pos(1, 7), Encoding::Utf8), x);
        // Inside the pair: the start of the emoji.
        assert_eq!(ix.offset(text, pos(1, 3), Encoding::Utf16), x - 4);
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let text = "ab\r\ncd\ref";
        let ix = LineIndex::new(text);
        assert_eq!(ix.offset(text, pos(0, 99), Encoding::Utf16), 2);
        assert_eq!(ix.offset(text, pos(1, 1), Encoding::Utf16), 5);
        assert_eq!(ix.offset(text, pos(2, 0), Encoding::Utf16), 7);
        assert_eq!(ix.offset(text, pos(9, 0), Encoding::Utf16), 9);
        assert_eq!(ix.position(text, 99, Encoding::Utf16), pos(2, 2));
        assert_eq!(ix.whole(text, Encoding::Utf16).end, pos(2, 2));
    }

    #[test]
    fn negotiation_prefers_utf8() {
        let all = [
            PositionEncodingKind::UTF16,
            PositionEncodingKind::UTF8,
            PositionEncodingKind::UTF32,
        ];
        assert_eq!(Encoding::negotiate(Some(&all)), Encoding::Utf8);
        assert_eq!(Encoding::negotiate(Some(&all[..1])), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
    }
}
