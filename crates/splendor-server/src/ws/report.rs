//! `report` (issue 22), and whom a `report` or a `block` names: a player
//! by `player_id` (found in the store), or the person in a seat or the
//! author of a chat line of the caller's room (the room says whom:
//! `Request::Whois`, on whatever node runs it). A report keeps the room's
//! chat of that moment for the operators, who list and resolve reports
//! in the console (`/api/admin/reports`); the reported player is never
//! told.

use splendor_lobby::room::{Person, Whom};
use splendor_lobby::{Answer, Request, RoomError};
use splendor_protocol::social::{MAX_REPORT_CHARS, Named, Report, Reported};
use splendor_protocol::{ErrorCode, ErrorInfo, RequestId, ServerMessage, Words};
use splendor_store::{
    NewReport, ReportCaps, ReportLine, Reporting, SessionId, Store, unix_millis_now,
};
use tracing::{info, warn};

use super::client::Client;

/// The most reports one session may make in a day.
pub(super) const MAX_REPORTS_PER_DAY: u32 = 10;

/// The most reports the sessions of one address may make in a day
/// together (a session costs nothing to make).
pub(super) const MAX_REPORTS_PER_ADDRESS_PER_DAY: u32 = 30;

/// The player a `block` or `report` named.
pub(super) struct Found {
    /// Their session.
    pub(super) session: SessionId,
    /// Their public id, when the request named them by it (a seat or a
    /// line reveals none: unrated rooms show no player ids).
    pub(super) player_id: Option<String>,
    /// Their name (in the room, when named there).
    pub(super) name: String,
    /// What the room said, when named by seat or line.
    pub(super) person: Option<(String, Person)>,
}

impl Client {
    /// Whom `named` names, with the store; refuses the request (and
    /// answers `None`) when nobody is, or the store or the room is away.
    pub(super) async fn find_named(
        &mut self,
        named: Named<'_>,
        id: &Option<RequestId>,
    ) -> Option<(Store, Found)> {
        let whom = match named {
            Named::PlayerId(raw) => {
                let (store, player_id, invitee) = self.find_player(raw, id).await?;
                let found = Found {
                    session: invitee.session,
                    player_id: Some(player_id),
                    name: invitee.name,
                    person: None,
                };
                return Some((store, found));
            }
            Named::Seat(seat) => Whom::Seat(seat),
            Named::Line(line) => Whom::Line(line),
        };
        let (session, room) = self.require_room(id)?;
        let Some(store) = self.state.store().cloned() else {
            self.reply_lobby_error(RoomError::StorageUnavailable, id.clone());
            return None;
        };
        let person = match room
            .call(self.caller(&session, id.clone()), Request::Whois { whom })
            .await
        {
            Ok(Answer::Person(person)) => *person,
            Ok(_) => {
                self.reply_lobby_error(
                    RoomError::internal("whois answered without a person"),
                    id.clone(),
                );
                return None;
            }
            Err(e) => {
                self.reply_lobby_error(e, id.clone());
                return None;
            }
        };
        let session = SessionId(person.session.0);
        Some((
            store,
            Found {
                session,
                player_id: None,
                name: person.name.clone(),
                person: Some((room.code().to_string(), person)),
            },
        ))
    }

    /// `report`.
    pub(super) async fn report(&mut self, report: Report, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        // The reason first: a bad one costs no lookup.
        let reason = match check_reason(&report.reason) {
            Ok(reason) => reason.to_owned(),
            Err(words) => return self.reply_error(ErrorCode::InvalidField, words, id),
        };
        let Some(named) = report.named() else {
            return self.reply_error(
                ErrorCode::InvalidField,
                Words::new("frame-name-one")
                    .text("type", "report")
                    .text("fields", "`player_id`, `seat`, `line`"),
                id,
            );
        };
        let Some((store, found)) = self.find_named(named, &id).await else {
            return;
        };
        let me = SessionId(session.id.0);
        if found.session == me {
            return self.reply_error(ErrorCode::InvalidField, Words::new("report-yourself"), id);
        }
        let (room, game, seat, line, chat) = match &found.person {
            Some((code, person)) => (
                Some(code.clone()),
                person.game.map(|g| g.to_string()),
                person.seat,
                person.line.as_ref().map(|l| l.text.clone()),
                person
                    .chat
                    .iter()
                    .map(|(author, line)| ReportLine {
                        session: Some(SessionId(author.0)),
                        name: line.from.clone(),
                        seat: line.seat,
                        line: line.line,
                        text: line.text.clone(),
                    })
                    .collect(),
            ),
            None => (None, None, None, None, Vec::new()),
        };
        let new = NewReport {
            reporter: me,
            reporter_name: session.name.clone(),
            reporter_client: self.address.as_ref().map(|a| a.as_str().to_owned()),
            reported: found.session,
            reported_name: found.name.clone(),
            room,
            game,
            seat,
            line,
            reason,
            chat,
        };
        let caps = ReportCaps {
            per_session: MAX_REPORTS_PER_DAY,
            per_address: MAX_REPORTS_PER_ADDRESS_PER_DAY,
        };
        let (report, new) = match store.report(&new, unix_millis_now(), caps).await {
            Ok(Reporting::Made(report)) => (report, true),
            Ok(Reporting::Already(report)) => (report, false),
            Ok(Reporting::Forgotten) => {
                // Forgotten since the room last saw them: nobody to report.
                let words = Words::new("invite-player-not-found").text("id", found.name);
                return self.reply_error(ErrorCode::PlayerNotFound, words, id);
            }
            Ok(Reporting::TooMany { retry_after_ms }) => {
                let words = Words::new("report-too-many")
                    .count("max", MAX_REPORTS_PER_DAY)
                    .count("hours", (retry_after_ms + 3_599_999) / 3_600_000);
                let mut error = ErrorInfo::new(ErrorCode::TooManyReports, self.word(&words), id);
                error.retry_after_ms = u64::try_from(retry_after_ms).ok();
                self.state.metrics().intent_rejected(&error.code);
                return self.send(ServerMessage::Error(error));
            }
            Err(e) => {
                warn!(error = %e, "report: the report cannot be stored");
                return self.reply_lobby_error(RoomError::StorageUnavailable, id);
            }
        };
        if new {
            info!(report, "a player reported another");
        }
        self.send(ServerMessage::Reported(Reported {
            id,
            player_id: found.player_id,
            name: found.name,
            new,
        }));
    }
}

/// The reason, trimmed, or why it is refused: chat's rule.
fn check_reason(text: &str) -> Result<&str, Words> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Words::new("report-empty"));
    }
    let chars = text.chars().count();
    if chars > MAX_REPORT_CHARS {
        return Err(Words::new("report-too-long")
            .count("max", MAX_REPORT_CHARS)
            .count("count", chars));
    }
    match splendor_lobby::text::text_problem(text) {
        None => Ok(text),
        Some(_) => Err(Words::new("report-text")),
    }
}
