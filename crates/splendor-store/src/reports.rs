//! Players' reports to the operators (issue 22): a player reports another
//! (by seat, chat line or player id); the store keeps whom, why, where and
//! the room's chat at that moment, until an operator resolves it with the
//! action taken (audited in the same transaction).

use crate::backend::dispatch;
use crate::{AuditNote, SessionId, Store, StoreError, UnixMillis};

/// The window in which a session's reports are counted.
pub const REPORT_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// A chat line kept with a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportLine {
    /// Its author's session.
    pub session: Option<SessionId>,
    /// The author's name then.
    pub name: String,
    /// The author's seat, if seated.
    pub seat: Option<u8>,
    /// The line's number in the room.
    pub line: u64,
    /// What was said.
    pub text: String,
}

/// A report to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReport {
    /// Who reports.
    pub reporter: SessionId,
    /// Their name.
    pub reporter_name: String,
    /// The address they report from (an IPv6 one by its /64), for the
    /// daily cap per address; never shown.
    pub reporter_client: Option<String>,
    /// Whom.
    pub reported: SessionId,
    /// Their name (in the room, or their session's).
    pub reported_name: String,
    /// The room it happened in, when named by seat or line.
    pub room: Option<String>,
    /// The room's game, if any.
    pub game: Option<String>,
    /// The reported person's seat, when seated.
    pub seat: Option<u8>,
    /// The chat line named, when a line was.
    pub line: Option<String>,
    /// Why, in the reporter's words.
    pub reason: String,
    /// The room's chat then, oldest first.
    pub chat: Vec<ReportLine>,
}

/// A report as the operators see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Its number.
    pub id: i64,
    /// When it was made, Unix ms.
    pub at: UnixMillis,
    /// What it says.
    pub made: NewReport,
    /// When it was resolved, Unix ms.
    pub resolved_at: Option<UnixMillis>,
    /// What was done.
    pub action: Option<String>,
    /// The operator's note.
    pub note: Option<String>,
}

/// What [`Store::report`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reporting {
    /// Made now, under this number.
    Made(i64),
    /// The reporter's open report of this session already said it.
    Already(i64),
    /// The reporter (or its address) made as many reports as it may in a
    /// day; the next may be made in this many ms.
    TooMany {
        /// When the next may be made, from now.
        retry_after_ms: i64,
    },
    /// The session reported was forgotten (forget-player): nothing kept.
    Forgotten,
}

/// How many reports may be made in a day: by one session, and from one
/// address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportCaps {
    /// A session's.
    pub per_session: u32,
    /// An address's, all its sessions together.
    pub per_address: u32,
}

impl Store {
    /// Keeps `report`, unless the reporter has an open report of the same
    /// session (`Already`), or it or its address made as many reports in
    /// the last day as `caps` allow. Counted and written in one statement
    /// (one open report per pair is also a unique index), so concurrent
    /// reports on any node cannot pass the caps. The chat lines of
    /// forgotten sessions are not kept.
    pub async fn report(
        &self,
        report: &NewReport,
        now: UnixMillis,
        caps: ReportCaps,
    ) -> Result<Reporting, StoreError> {
        if report.reporter == report.reported {
            return Err(StoreError::invalid(
                "reported",
                "a session cannot report itself",
            ));
        }
        dispatch!(&self.inner.pool, pool, q => q::report(pool, report, now, caps).await)
    }

    /// The reports, newest first: the open ones only, or every one.
    pub async fn reports(&self, open_only: bool, limit: u32) -> Result<Vec<Report>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::reports(pool, None, open_only, i64::from(limit)).await)
    }

    /// The reports about `session`, newest first.
    pub async fn reports_about(
        &self,
        session: SessionId,
        limit: u32,
    ) -> Result<Vec<Report>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::reports(pool, Some(session.0), false, i64::from(limit)).await)
    }

    /// Resolves open report `id` recording `action` and `note`, audited
    /// in the same transaction; `None` if there is no such open report.
    pub async fn resolve_report(
        &self,
        id: i64,
        action: &str,
        note: &str,
    ) -> Result<Option<Report>, StoreError> {
        let target = format!("report:{id}");
        let audit = AuditNote {
            actor: "operator",
            action: "resolve_report",
            target: &target,
            reason: &format!("{action}: {note}"),
        };
        dispatch!(&self.inner.pool, pool, q => q::resolve_report(pool, id, action, note, &audit).await)
    }
}
