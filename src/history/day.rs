//! Days of the local calendar: figures are kept and shown per day where the user lives.

use std::fmt;

use crate::format::{civil_from_days, days_from_civil};

/// A day of the local calendar, as days since 1970-01-01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Day(i64);

impl Day {
    /// The local day of a moment (seconds since the Unix epoch), in the time zone the C library
    /// finds (`TZ`, else `/etc/localtime`); the UTC day when it cannot tell.
    pub(crate) fn local(unix: i64) -> Day {
        // time_t is 64 bits wide on every platform ctxoff builds for.
        let time: libc::time_t = unix;
        // SAFETY: `tm` is plain data, valid when zeroed; localtime_r is reentrant and writes
        // only into it.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        if unsafe { libc::localtime_r(&time, &mut tm) }.is_null() {
            return Day(unix.div_euclid(86_400));
        }
        Day(days_from_civil(
            i64::from(tm.tm_year) + 1900,
            (tm.tm_mon + 1) as u32,
            tm.tm_mday as u32,
        ))
    }

    pub(crate) fn today() -> Day {
        Day::local(now())
    }

    /// The day `days` before this one.
    pub(crate) fn minus(self, days: i64) -> Day {
        Day(self.0 - days)
    }

    /// The day `days` after this one.
    pub(crate) fn plus(self, days: i64) -> Day {
        Day(self.0 + days)
    }

    /// Days from `earlier` to this day.
    pub(crate) fn since(self, earlier: Day) -> i64 {
        self.0 - earlier.0
    }

    /// `2025-11-30`, strictly: four-digit year, two-digit month and day, a date that exists.
    pub(crate) fn parse(text: &str) -> Option<Day> {
        let bytes = text.as_bytes();
        let shape = bytes.len() == 10
            && bytes[4] == b'-'
            && bytes[7] == b'-'
            && bytes
                .iter()
                .enumerate()
                .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
        if !shape {
            return None;
        }
        let (year, month, day) = (
            text[..4].parse().ok()?,
            text[5..7].parse().ok()?,
            text[8..].parse().ok()?,
        );
        let parsed = Day(days_from_civil(year, month, day));
        (civil_from_days(parsed.0) == (year, month, day)).then_some(parsed)
    }

    /// `Mon` … `Sun`.
    pub(crate) fn weekday(self) -> &'static str {
        // 1970-01-01 was a Thursday.
        ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][self.0.rem_euclid(7) as usize]
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = civil_from_days(self.0);
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_parse_and_print() {
        let day = Day::parse("2025-11-30").unwrap();
        assert_eq!(day.to_string(), "2025-11-30");
        assert_eq!(day.weekday(), "Sun");
        assert_eq!(day.minus(6).to_string(), "2025-11-24");
        assert_eq!(day.since(day.minus(6)), 6);
        assert_eq!(Day::parse("2024-02-29").unwrap().weekday(), "Thu");
        for bad in [
            "2025-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-1-1",
            "25-11-30",
            "2025/11/30",
            "+025-11-30",
            "2025-11-3O",
            "",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_local_day_is_within_a_day_of_the_utc_day() {
        // Time zones lie between UTC-12 and UTC+14.
        for unix in [0, 1_764_547_200, 1_764_590_399, now()] {
            let utc = unix.div_euclid(86_400);
            let local = Day::local(unix).0;
            assert!((local - utc).abs() <= 1, "{unix}");
        }
    }
}
