//! What the settings are read as: database URLs and durations.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A database URL: `sqlite://PATH`, `sqlite::memory:` (tests) or
/// `postgres://...`. Its `Debug` and `Display` forms hide any password, so
/// that a logged configuration does not leak it.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl(pub(super) String);

impl DatabaseUrl {
    /// The URL itself, password included: only for opening the database.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// True for a PostgreSQL URL.
    pub fn is_postgres(&self) -> bool {
        self.0.starts_with("postgres://") || self.0.starts_with("postgresql://")
    }
}

impl FromStr for DatabaseUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<DatabaseUrl, String> {
        let text = text.trim();
        let known = ["sqlite:", "postgres://", "postgresql://"];
        if known.iter().any(|scheme| text.starts_with(scheme)) {
            Ok(DatabaseUrl(text.to_owned()))
        } else {
            let scheme = text.split(':').next().unwrap_or_default();
            Err(format!(
                "unsupported database URL (scheme {scheme:?}): use sqlite://PATH or \
                 postgres://USER:PASSWORD@HOST/DATABASE"
            ))
        }
    }
}

impl fmt::Display for DatabaseUrl {
    /// The URL with the password, if any, replaced by `***`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let url = &self.0;
        let Some(authority_start) = url.find("://").map(|i| i + 3) else {
            return f.write_str(url);
        };
        let authority_end = url[authority_start..]
            .find('/')
            .map_or(url.len(), |i| authority_start + i);
        let authority = &url[authority_start..authority_end];
        match authority.rfind('@') {
            Some(at) if authority[..at].contains(':') => {
                let user_end = authority_start + authority[..at].find(':').unwrap_or(at);
                write!(
                    f,
                    "{}:***{}",
                    &url[..user_end],
                    &url[authority_start + at..]
                )
            }
            _ => f.write_str(url),
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatabaseUrl({self})")
    }
}

/// A duration greater than zero (see [`parse_duration`]).
pub fn parse_positive_duration(text: &str) -> Result<Duration, String> {
    let duration = parse_duration(text)?;
    if duration.is_zero() {
        return Err("the duration must be greater than zero".into());
    }
    Ok(duration)
}

/// Reads a duration: a number with a unit `ms`, `s`, `m` or `h`, or a bare
/// number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 250ms, 30s, 10m, 2h or 30d"))?;
    let millis = match unit.trim() {
        "ms" => Some(n),
        "" | "s" => n.checked_mul(1_000),
        "m" => n.checked_mul(60_000),
        "h" => n.checked_mul(3_600_000),
        "d" => n.checked_mul(86_400_000),
        other => return Err(format!("unknown unit {other:?}; use ms, s, m, h or d")),
    };
    millis
        .map(Duration::from_millis)
        .ok_or_else(|| format!("{text:?} is too long"))
}

/// A VAPID contact: a `mailto:` address or an `https://` URL (RFC 8292).
pub(super) fn parse_push_contact(text: &str) -> Result<String, String> {
    let ok = (text.starts_with("mailto:") && text.len() > 8 && text.contains('@'))
        || (text.starts_with("https://") && text.len() > 8);
    if ok && text.len() <= 256 && !text.chars().any(char::is_whitespace) {
        Ok(text.to_owned())
    } else {
        Err("a push contact is mailto:you@example.org or an https:// URL".into())
    }
}
