//! Time for the memory: a clock the caller passes in (tests and replays fix
//! it), timestamps in RFC 3339 UTC with milliseconds, and record ids.

use std::time::{SystemTime, UNIX_EPOCH};

/// A point in time, in whole milliseconds since 1970-01-01T00:00:00Z, from the
/// epoch up to the last millisecond of the year 9999 (the range RFC 3339's
/// four-digit years can write).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(u64);

impl Timestamp {
    /// 9999-12-31T23:59:59.999Z.
    pub const MAX: Timestamp = Timestamp(253_402_300_799_999);

    /// The timestamp `ms` milliseconds after the epoch, if it is in range.
    pub fn from_millis(ms: u64) -> Option<Timestamp> {
        (ms <= Timestamp::MAX.0).then_some(Timestamp(ms))
    }

    pub fn millis(self) -> u64 {
        self.0
    }

    /// The RFC 3339 text in UTC with exactly three fraction digits,
    /// `2026-05-04T09:08:07.006Z`: fixed width, so that text order is time order.
    pub fn rfc3339(self) -> String {
        let secs = self.0 / 1000;
        let (days, day_secs) = (secs / 86_400, secs % 86_400);
        let (y, m, d) = civil_from_days(days as i64);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
            day_secs / 3600,
            day_secs / 60 % 60,
            day_secs % 60,
            self.0 % 1000
        )
    }

    /// Reads the text [`Timestamp::rfc3339`] writes, and nothing else.
    pub fn parse_rfc3339(text: &str) -> Option<Timestamp> {
        let b = text.as_bytes();
        let shape = b.len() == 24
            && b.iter().enumerate().all(|(i, c)| match i {
                4 | 7 => *c == b'-',
                10 => *c == b'T',
                13 | 16 => *c == b':',
                19 => *c == b'.',
                23 => *c == b'Z',
                _ => c.is_ascii_digit(),
            });
        if !shape {
            return None;
        }
        let num = |r: std::ops::Range<usize>| text[r].parse::<u64>().ok();
        let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (h, mi, s, ms) = (num(11..13)?, num(14..16)?, num(17..19)?, num(20..23)?);
        if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 59 {
            return None;
        }
        let days = u64::try_from(days_from_civil(y as i64, mo as u32, d as u32)).ok()?;
        let t = Timestamp::from_millis(((days * 24 + h) * 60 + mi) * 60_000 + s * 1000 + ms)?;
        // A day past the month's end (02-30) reads as another date: refuse it.
        (t.rfc3339() == text).then_some(t)
    }
}

/// Where the memory reads the time. Stores read it once per record, while
/// they hold the store's lock, so that records added one after the other get
/// non-decreasing times on one clock.
pub trait Clock {
    fn now(&self) -> Timestamp;
}

/// The system's clock (times before 1970 read as the epoch, after 9999 as its end).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        Timestamp(ms.min(Timestamp::MAX.0))
    }
}

/// A clock that always reads the same time (for tests and replays).
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub Timestamp);

impl Clock for FixedClock {
    fn now(&self) -> Timestamp {
        self.0
    }
}

/// The id of a record: the layout of a ULID (26 characters of Crockford's
/// base 32, 128 bits), whose first 48 bits are the record's creation time in
/// milliseconds and whose last 80 bits are its position in its store, a
/// number that grows with every record added there. Ids are therefore unique
/// within a store (the position is taken under the store's lock), sort by
/// creation time and then by insertion order, and are the same on every run
/// that adds the same records at the same times.
pub fn record_id(created: Timestamp, position: u64) -> String {
    const DIGITS: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let value = (u128::from(created.0) << 80) | u128::from(position);
    (0..26)
        .map(|i| char::from(DIGITS[((value >> (5 * (25 - i))) & 31) as usize]))
        .collect()
}

/// Year, month, day of the day `z` days after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The inverse of [`civil_from_days`].
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = i64::from(if m > 2 { m - 3 } else { m + 9 });
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_round_trips_known_dates() {
        for (ms, text) in [
            (0, "1970-01-01T00:00:00.000Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (1_780_542_487_006, "2026-06-04T03:08:07.006Z"),
            (Timestamp::MAX.0, "9999-12-31T23:59:59.999Z"),
        ] {
            let t = Timestamp::from_millis(ms).unwrap_or_else(|| panic!("{ms}"));
            assert_eq!(t.rfc3339(), text);
            assert_eq!(Timestamp::parse_rfc3339(text), Some(t));
        }
        assert_eq!(Timestamp::from_millis(Timestamp::MAX.0 + 1), None);
    }

    #[test]
    fn rfc3339_parse_refuses_other_shapes() {
        for bad in [
            "",
            "2026-06-04T03:08:07Z",
            "2026-06-04T03:08:07.006+00:00",
            "2026-02-30T00:00:00.000Z",
            "2026-13-01T00:00:00.000Z",
            "2026-06-04T24:00:00.000Z",
            "2026-06-04 03:08:07.006Z",
            "+026-06-04T03:08:07.006Z",
        ] {
            assert_eq!(Timestamp::parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn ids_sort_by_time_then_position() {
        let t = |ms| Timestamp::from_millis(ms).unwrap_or(Timestamp::MAX);
        let ids = [
            record_id(t(0), 1),
            record_id(t(0), 2),
            record_id(t(1), 0),
            record_id(t(1_780_542_487_006), 7),
            record_id(Timestamp::MAX, u64::MAX),
        ];
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
        assert!(ids.iter().all(|id| id.len() == 26));
        assert_eq!(ids[0], "00000000000000000000000001");
        assert_eq!(
            record_id(t(1), 0),
            "0000000001".to_owned() + "0000000000000000"
        );
    }
}
