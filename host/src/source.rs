//! Source text with its line table: turns byte offsets into the line and
//! column of a [`Span`].

use isu_plugin_api::Span;

/// One source file (or fragment) held in memory.
#[derive(Debug, Clone)]
pub struct Source {
    /// The name diagnostics show: a path, or `<patch>`, `<stdin>`.
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        Source {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The 1-based line and column (in Unicode scalar values) of a byte offset.
    /// Offsets past the end map to the end.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let offset = offset.min(self.text.len() as u32);
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let col = self
            .text
            .get(start..offset as usize)
            .map_or(offset as usize - start, |s| s.chars().count());
        (line as u32 + 1, col as u32 + 1)
    }

    /// The span of the bytes `lo..hi`.
    pub fn span(&self, lo: u32, hi: u32) -> Span {
        let (line, col) = self.line_col(lo);
        Span { lo, hi, line, col }
    }

    /// The text of a 1-based line, without its line break.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map_or(self.text.len(), |&e| e as usize);
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    pub fn len(&self) -> u32 {
        self.text.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns() {
        let src = Source::new("t", "ab\nçd\n\nx");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(3), (2, 1));
        assert_eq!(src.line_col(5), (2, 2)); // after the two-byte ç
        assert_eq!(src.line_col(8), (4, 1));
        assert_eq!(src.line_col(99), (4, 2));
        assert_eq!(src.line_text(2), "çd");
        assert_eq!(src.line_text(3), "");
        assert_eq!(src.line_text(9), "");
    }
}
