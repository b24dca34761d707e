//! String values: UTF-8 text with its length in Unicode scalar values, so
//! that `LEN` is O(1) and an all-ASCII string slices by bytes. Short texts
//! (most words, keys and numbers) live inline, so a string value costs one
//! allocation (its reference count's) instead of two.

use std::cmp::Ordering;
use std::fmt;

/// The longest text kept inline, in bytes.
const INLINE: usize = 22;

#[derive(Clone)]
enum Buf {
    Inline(u8, [u8; INLINE]),
    Heap(String),
}

#[derive(Clone)]
pub struct Text {
    chars: usize,
    buf: Buf,
}

impl Default for Text {
    fn default() -> Text {
        Text {
            chars: 0,
            buf: Buf::Inline(0, [0; INLINE]),
        }
    }
}

impl Text {
    /// The text of `s`, taking its buffer when it is too long to keep inline.
    pub fn new(s: String) -> Text {
        let chars = s.chars().count();
        if s.len() <= INLINE {
            return Text::inline(s.as_bytes(), chars);
        }
        Text {
            chars,
            buf: Buf::Heap(s),
        }
    }

    /// The text of `s`, copied.
    pub fn of(s: &str) -> Text {
        let chars = s.chars().count();
        if s.len() <= INLINE {
            Text::inline(s.as_bytes(), chars)
        } else {
            Text {
                chars,
                buf: Buf::Heap(s.to_owned()),
            }
        }
    }

    /// An empty text with room for `bytes` bytes.
    pub fn with_capacity(bytes: usize) -> Text {
        if bytes <= INLINE {
            Text::default()
        } else {
            Text {
                chars: 0,
                buf: Buf::Heap(String::with_capacity(bytes)),
            }
        }
    }

    fn inline(bytes: &[u8], chars: usize) -> Text {
        let mut b = [0; INLINE];
        let n = bytes.len().min(INLINE);
        b[..n].copy_from_slice(&bytes[..n]);
        Text {
            chars,
            buf: Buf::Inline(n as u8, b),
        }
    }

    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.buf {
            Buf::Inline(n, b) => &b[..usize::from(*n).min(INLINE)],
            Buf::Heap(s) => s.as_bytes(),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.buf {
            // Inline bytes are always a whole UTF-8 text (they are copied
            // from a `str` or appended a whole `str` at a time).
            Buf::Inline(..) => std::str::from_utf8(self.as_bytes()).unwrap_or_default(),
            Buf::Heap(s) => s,
        }
    }

    /// The length in Unicode scalar values.
    pub fn chars(&self) -> usize {
        self.chars
    }

    pub fn is_ascii(&self) -> bool {
        self.chars == self.as_bytes().len()
    }

    /// Appends `other` in place.
    pub fn push_text(&mut self, other: &Text) {
        let add = other.as_bytes();
        match &mut self.buf {
            Buf::Inline(n, b) if usize::from(*n) + add.len() <= INLINE => {
                let at = usize::from(*n);
                b[at..at + add.len()].copy_from_slice(add);
                *n += add.len() as u8;
            }
            Buf::Inline(..) => {
                let mut s = String::with_capacity((self.as_bytes().len() + add.len()) * 2);
                s.push_str(self.as_str());
                s.push_str(other.as_str());
                self.buf = Buf::Heap(s);
            }
            Buf::Heap(s) => s.push_str(other.as_str()),
        }
        self.chars += other.chars;
    }

    /// The characters `lo..hi` (in scalar values); the caller checked
    /// `lo <= hi <= chars`.
    pub fn slice(&self, lo: usize, hi: usize) -> Text {
        if self.is_ascii() {
            let s = self.as_str().get(lo..hi).unwrap_or_default();
            return Text::of(s);
        }
        let s: String = self.as_str().chars().skip(lo).take(hi - lo).collect();
        Text::new(s)
    }

    /// The text with ASCII `A`-`Z` turned into `a`-`z`.
    pub fn to_ascii_lowercase(&self) -> Text {
        let mut out = self.clone();
        match &mut out.buf {
            Buf::Inline(n, b) => b[..usize::from(*n).min(INLINE)].make_ascii_lowercase(),
            Buf::Heap(s) => s.make_ascii_lowercase(),
        }
        out
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Byte order of UTF-8 is code point order.
impl Ord for Text {
    #[inline]
    fn cmp(&self, other: &Text) -> Ordering {
        cmp_bytes(self.as_bytes(), other.as_bytes())
    }
}

/// Lexicographic order of byte strings, eight bytes at a time: map keys
/// are mostly short, and comparing them inline beats a call to `memcmp`.
#[inline]
fn cmp_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let (mut a8, mut b8) = (a[..n].chunks_exact(8), b[..n].chunks_exact(8));
    for (x, y) in (&mut a8).zip(&mut b8) {
        let x = u64::from_be_bytes(x.try_into().unwrap_or_default());
        let y = u64::from_be_bytes(y.try_into().unwrap_or_default());
        if x != y {
            return x.cmp(&y);
        }
    }
    match a8.remainder().cmp(b8.remainder()) {
        Ordering::Equal => a.len().cmp(&b.len()),
        unequal => unequal,
    }
}

/// The decimal text of an int, without allocating.
pub fn decimal(i: i64) -> Text {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut u = i.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if i < 0 {
        at -= 1;
        digits[at] = b'-';
    }
    let len = digits.len() - at;
    Text::inline(&digits[at..], len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_order_by_code_point() {
        let words = [
            "",
            "B",
            "a",
            "ab",
            "abcdefgh",
            "abcdefghi",
            "abcdefgi",
            "b",
            "é",
            "日",
            "\u{ffff}",
            "😀",
            "a long text that does not fit inline, at all",
        ];
        let mut sorted = words;
        sorted.sort();
        for x in words {
            for y in words {
                assert_eq!(Text::of(x).cmp(&Text::of(y)), x.cmp(y), "{x:?} vs {y:?}");
                assert_eq!(Text::of(x) == Text::new(y.to_owned()), x == y);
            }
        }
    }

    #[test]
    fn inline_and_heap_texts_behave_alike() {
        let short = Text::of("añb日");
        assert_eq!(
            (short.chars(), short.as_str(), short.is_ascii()),
            (4, "añb日", false)
        );
        assert_eq!(short.slice(1, 3).as_str(), "ñb");
        assert_eq!(short.slice(1, 3).chars(), 2);
        let long = Text::of(&"é".repeat(30));
        assert_eq!((long.chars(), long.as_bytes().len()), (30, 60));
        assert_eq!(long.slice(28, 30).as_str(), "éé");
        assert_eq!(Text::of("hello").slice(1, 4).as_str(), "ell");
        let mut x = Text::of("ab");
        x.push_text(&short);
        assert_eq!((x.as_str(), x.chars()), ("abañb日", 6));
        for _ in 0..4 {
            let y = x.clone();
            x.push_text(&y);
        }
        assert_eq!(x.chars(), 96);
        assert_eq!(x.as_str(), "abañb日".repeat(16));
        let mut c = Text::with_capacity(100);
        c.push_text(&Text::of("z"));
        assert_eq!(c, Text::of("z"));
        assert_eq!(Text::of("ÀB-c").to_ascii_lowercase().as_str(), "Àb-c");
        assert_eq!(long.to_ascii_lowercase(), long);
    }

    #[test]
    fn decimals() {
        for i in [0, 7, -7, 10, -120, i64::MAX, i64::MIN] {
            assert_eq!(decimal(i).as_str(), i.to_string());
            assert_eq!(decimal(i).chars(), i.to_string().len());
        }
    }
}
