//! The versions of the IIR JSON form, `isu-iir/MAJOR.MINOR`, and which of
//! them a reader can take.
//!
//! A minor version adds only what a reader may ignore: optional annotations
//! (fields a reader of an older minor skips). A reader of any minor of a
//! major reads every minor of it. What a reader must understand (a new kind
//! of node) is gated by a feature ([`crate::feature_set`]), so it reaches
//! only backends that declare it; a change that cannot be gated is a new
//! major version. A backend lists the formats it reads in its info; the
//! host checks, when it loads the backend, that it writes one of them, and
//! sends every program in the newest format both know.

use crate::iir::IIR_FORMAT;
use std::fmt;

/// One IIR format version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IirFormat {
    /// A reader reads only formats of the majors it lists.
    pub major: u32,
    /// A reader of minor `N` of a major reads every minor of it.
    pub minor: u32,
}

const PREFIX: &str = "isu-iir/";

impl IirFormat {
    /// The format this crate writes and reads: [`IIR_FORMAT`].
    pub fn current() -> IirFormat {
        // IIR_FORMAT is a constant of this crate that a test parses.
        IirFormat::parse(IIR_FORMAT).unwrap_or(IirFormat { major: 0, minor: 0 })
    }

    /// Parses `isu-iir/MAJOR.MINOR`.
    pub fn parse(text: &str) -> Option<IirFormat> {
        let (major, minor) = text.strip_prefix(PREFIX)?.split_once('.')?;
        let number = |s: &str| {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        Some(IirFormat {
            major: number(major)?,
            minor: number(minor)?,
        })
    }

    /// Whether a reader of `self` reads a program written in `written`: the
    /// same major version, whatever the minor.
    pub fn reads(self, written: IirFormat) -> bool {
        self.major == written.major
    }

    /// The newest of the formats `writes` (what a host can write) that a
    /// reader of one of `reads` reads.
    pub fn newest_common(writes: &[IirFormat], reads: &[IirFormat]) -> Option<IirFormat> {
        writes
            .iter()
            .copied()
            .filter(|w| reads.iter().any(|r| r.reads(*w)))
            .max()
    }
}

impl fmt::Display for IirFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}.{}", self.major, self.minor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(major: u32, minor: u32) -> IirFormat {
        IirFormat { major, minor }
    }

    #[test]
    fn formats_parse_and_print() {
        assert_eq!(IirFormat::current().to_string(), IIR_FORMAT);
        assert_eq!(IirFormat::parse("isu-iir/1.12"), Some(v(1, 12)));
        for bad in [
            "isu-iir/1",
            "isu-iir/1.",
            "iir/1.0",
            "isu-iir/1.x",
            "isu-iir/-1.0",
        ] {
            assert_eq!(IirFormat::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn any_minor_of_a_major_reads_and_the_newest_common_wins() {
        assert!(v(0, 1).reads(v(0, 2)) && v(0, 2).reads(v(0, 1)));
        assert!(!v(0, 1).reads(v(1, 0)));
        let writes = [v(0, 3), v(1, 0)];
        assert_eq!(IirFormat::newest_common(&writes, &[v(0, 1)]), Some(v(0, 3)));
        assert_eq!(
            IirFormat::newest_common(&writes, &[v(0, 1), v(1, 2)]),
            Some(v(1, 0))
        );
        assert_eq!(IirFormat::newest_common(&writes, &[v(2, 0)]), None);
    }
}
