//! `hello` on a connection: a new session or a resumed one, and back into
//! the seat it had.

use std::time::Duration;

use tokio::time::Instant;

use splendor_lobby::{RoomError, RoomSeat, Session, SessionError};
use splendor_protocol::{
    ErrorCode, Hello, MAX_LIVENESS_S, PROTOCOL_VERSION, RequestId, ServerMessage, Welcome, Words,
};
use tracing::{debug, warn};

use crate::l10n::Lang;
use crate::sanctions::{Ban, Who, ban_for};

use super::client::{Client, HELLO_EXAMPLE};

/// How long a seat waiting for its room's new owner waits before it looks
/// again by itself (the announcement of the new owner is the quick way).
const LOOK_AGAIN: Duration = Duration::from_secs(1);

impl Client {
    /// What is wrong with `name` (already checked as a kept name) as a name
    /// taken now: too wide, or a filtered word read across the whole name.
    fn new_name_problem(&self, name: &str) -> Option<Words> {
        if let Err(why) = self.state.names().check_width(name) {
            return Some(why);
        }
        let word = self.state.word_filter().find_in_name(name)?;
        Some(Words::new("name-filtered").text("word", word.to_owned()))
    }

    pub(super) async fn hello(&mut self, hello: Hello, id: Option<RequestId>) {
        if let Some(session) = &self.session {
            let words =
                Words::new("conn-already-identified").text("name", format!("{:?}", session.name));
            return self.reply_error(ErrorCode::AlreadyIdentified, words, id);
        }
        // The language first: this hello's own errors are said in it, and
        // it stays for the connection's later errors even if this hello
        // fails (a hello without one says English).
        let lang = match hello.lang.as_deref().map(Lang::parse).transpose() {
            Ok(lang) => lang.unwrap_or_default(),
            Err(why) => {
                self.lang.set(Lang::En);
                return self.reply_error(ErrorCode::InvalidField, why, id);
            }
        };
        self.lang.set(lang);
        if let Some(every) = hello.liveness_s
            && !(1..=MAX_LIVENESS_S).contains(&every)
        {
            let words = Words::new("conn-hello-liveness")
                .num("max", MAX_LIVENESS_S)
                .num("value", every);
            return self.reply_error(ErrorCode::InvalidField, words, id);
        }
        if hello.challenges && !hello.bot {
            let words = Words::new("conn-hello-challenges-needs-bot");
            return self.reply_error(ErrorCode::InvalidField, words, id);
        }
        if let Some(owner) = &hello.owner {
            let chars = owner.chars().count();
            if !hello.bot || !splendor_protocol::OWNER_CHARS.contains(&chars) {
                let words = Words::new("conn-hello-owner")
                    .count("min", *splendor_protocol::OWNER_CHARS.start())
                    .count("max", *splendor_protocol::OWNER_CHARS.end());
                return self.reply_error(ErrorCode::InvalidField, words, id);
            }
        }
        let names = *self.state.names();
        let name = match hello
            .name
            .as_deref()
            .map(|n| names.check_kept(n))
            .transpose()
        {
            Ok(name) => name,
            Err(why) => return self.reply_error(ErrorCode::InvalidName, why, id),
        };
        // The host's word filter: such a name is refused.
        if let Some(word) = name
            .as_deref()
            .and_then(|n| self.state.word_filter().find(n))
        {
            let words = Words::new("name-filtered").text("word", word.to_owned());
            return self.reply_error(ErrorCode::InvalidName, words, id);
        }
        // A name taken now (a new session's, or a rename) is also held to
        // the width and read whole by the word filter (issue 46); a
        // session's name from before stays as it is.
        if hello.token.is_none()
            && let Some(why) = name.as_deref().and_then(|n| self.new_name_problem(n))
        {
            return self.reply_error(ErrorCode::InvalidName, why, id);
        }
        // A banned address or name is refused before a session is made.
        if hello.token.is_none() {
            let who = Who {
                name: name.as_deref(),
                ..self.who()
            };
            if let Some(ban) = ban_for(&self.state, &who).await {
                return self.refuse_banned(&ban, id);
            }
        }
        // Issue 51: a program without its token, named as one of its
        // owner's programs and with the same owner secret, is that program.
        let reclaimed = match (&hello.token, &name) {
            (None, Some(name)) if hello.bot => {
                self.reclaim_program(name, hello.owner.as_deref()).await
            }
            _ => None,
        };
        let sessions = self.state.sessions();
        let (session, token, resumed) = match (hello.token.or(reclaimed), name) {
            (Some(token), name) => match sessions.resume(&token).await {
                Ok(Some(mut session)) => {
                    // A banned session, name or address is refused before
                    // anything of it changes.
                    let who = Who {
                        session: Some(session.id.0),
                        name: Some(name.as_deref().unwrap_or(&session.name)),
                        ..self.who()
                    };
                    if let Some(ban) = ban_for(&self.state, &who).await {
                        return self.refuse_banned(&ban, id);
                    }
                    // A program's name is unique among programs (issue
                    // 24): claimed before the session changes at all.
                    if (session.program || hello.bot)
                        && !self
                            .claim_program_name(
                                session.id,
                                name.as_deref().unwrap_or(&session.name),
                                &id,
                            )
                            .await
                    {
                        return;
                    }
                    if let Some(name) = name
                        && name != session.name
                    {
                        if let Some(why) = self.new_name_problem(&name) {
                            return self.reply_error(ErrorCode::InvalidName, why, id);
                        }
                        if let Err(e) = sessions.rename(session.id, &name).await {
                            warn!(error = %e, "session rename failed");
                            return self.reply_session_error(&e, id);
                        }
                        session.name = name;
                    }
                    (session, token, true)
                }
                Ok(None) => {
                    let words = Words::new("conn-unknown-token").text("example", HELLO_EXAMPLE);
                    return self.reply_error(ErrorCode::InvalidToken, words, id);
                }
                Err(e) => {
                    warn!(error = %e, "session lookup failed");
                    return self.reply_session_error(&e, id);
                }
            },
            (None, Some(name)) if hello.bot && !self.program_name_free(&name, &id).await => {
                return;
            }
            (None, Some(name)) => match sessions
                .create_from(&name, self.session_origin().as_ref())
                .await
            {
                Ok((session, token)) => {
                    // A program's name is unique among programs (issue 24).
                    if hello.bot && !self.claim_program_name(session.id, &name, &id).await {
                        return;
                    }
                    (session, token.expose().to_owned(), false)
                }
                // A budget's refusal is the stranger's doing: counted in
                // the metrics (intent_rejected), not logged each time.
                Err(e @ SessionError::TooMany { .. }) => {
                    return self.reply_session_error(&e, id);
                }
                Err(e) => {
                    warn!(error = %e, "session creation failed");
                    return self.reply_session_error(&e, id);
                }
            },
            (None, None) => {
                let words = Words::new("conn-hello-needs-name");
                return self.reply_error(ErrorCode::MissingField, words, id);
            }
        };
        self.conn_span
            .record("session", tracing::field::display(session.id));
        debug!(resumed, "identified");
        // A newer connection for the same session replaces the old one. One
        // claimant of a session at a time, to the end of its rejoin, so that
        // the last claimant is the one its room keeps.
        // Another device's connection (a token of its own, issue 23) stays.
        let _turn = self.state.lobby().presence().turn(session.id).await;
        self.device = splendor_lobby::device_key(&token);
        let mut room = self
            .state
            .lobby()
            .presence()
            .claim(session.id, self.device, &self.conn);
        // In a cluster the session may have played through another node:
        // its seat in a running game is in the database.
        if room.is_none() && resumed {
            room = self.seat_elsewhere(session.id).await;
        }
        self.verbose = hello.verbose;
        let bot = self.session_is_bot(&session, hello.bot).await;
        self.program = bot;
        let mut session = session;
        session.program = bot;
        // Silent for 2.4 times the promised interval: away (R12.3).
        self.liveness = hello
            .liveness_s
            .map(|every| Duration::from_millis(u64::from(every) * 2400));
        // The session's address as of this hello (issue 22: the operators'
        // console finds sessions by it), and a program's owner (issue 24:
        // the ladder's pairing and caps read both); a program that takes
        // challenges is listed online while this connection is open, from
        // before its `welcome` on.
        self.program_owner(session.id, hello.owner.as_deref()).await;
        if bot && hello.challenges {
            self.challenges = true;
            self.program_online(session.id).await;
        }
        self.send(ServerMessage::Welcome(Welcome {
            id,
            session: session.id.to_string(),
            token,
            name: session.name.clone(),
            resumed,
            protocol: PROTOCOL_VERSION,
            verbose: self.verbose,
            lang: self.lang.get().code().to_owned(),
            player_id: splendor_store::player_id(splendor_store::SessionId(session.id.0)),
            bot,
            public_url: self
                .state
                .config()
                .public_url
                .as_ref()
                .map(|u| u.trim_end_matches('/').to_owned()),
            node: self.state.node_id(),
        }));
        self.session = Some(session.clone());
        self.load_blocks(&session).await;
        // Back into the room the session was in: its seat and the current state at once.
        if let Some(seat) = room {
            self.rejoin(session.clone(), seat, false).await;
        }
        // Back in the quick-play queue it waits in.
        if resumed {
            self.resume_queue(&session).await;
        }
        // A program that takes challenges (issue 24) is told of the
        // challenges waiting for it.
        if self.challenges {
            let me = splendor_store::SessionId(session.id.0);
            for challenge in crate::invitations::pending_challenges(&self.state, me).await {
                self.send(ServerMessage::Challenge(challenge));
            }
        }
    }

    /// In a cluster, the room of the running game in which the session
    /// holds a seat, whichever node runs it.
    async fn seat_elsewhere(&self, session: splendor_lobby::SessionId) -> Option<RoomSeat> {
        self.state.cluster()?;
        let store = self.state.store()?;
        let code = match store.seat_room(splendor_store::SessionId(session.0)).await {
            Ok(code) => code?,
            Err(e) => {
                warn!(error = %e, "looking up the session's seat");
                return None;
            }
        };
        Some(RoomSeat {
            code: splendor_lobby::RoomCode::parse(&code)?,
            role: splendor_protocol::Role::Player,
        })
    }

    /// In a cluster: whether the session holds a seat in the running game
    /// of room `seat` (the database says so), so that it waits for the
    /// room to get an owner again rather than forgetting it.
    /// A database that cannot be reached cannot tell: the seat waits
    /// (forgetting it would strand the player when this node is the one
    /// cut off).
    async fn seat_in_running_game(&self, session: &Session, seat: &RoomSeat) -> bool {
        if self.state.cluster().is_none() {
            return false;
        }
        let Some(store) = self.state.store() else {
            return false;
        };
        match store
            .seat_room(splendor_store::SessionId(session.id.0))
            .await
        {
            Ok(room) => room.as_deref() == Some(seat.code.as_str()),
            Err(e) => {
                warn!(error = %e, "looking up the session's seat; it waits");
                true
            }
        }
    }

    /// The room this connection is in moved to another node (its owner
    /// died, paused or was cut off, and another node took it over): join
    /// it again where it lives now, with the same seat.
    pub(super) async fn room_moved(&mut self, room: splendor_lobby::RoomCode) {
        let Some(session) = self.session.clone() else {
            return;
        };
        let Some(seat) = self.state.lobby().presence().room_of(session.id) else {
            return;
        };
        if seat.code != room {
            return;
        }
        let presence = self.state.lobby().presence();
        let _turn = presence.turn(session.id).await;
        // A newer connection of the same device took over meanwhile: it joins.
        if !presence.is_open(session.id, self.conn.id()) {
            return;
        }
        debug!(%room, "the room moved; joining it where it lives now");
        self.set_room(None);
        self.rejoin(session, seat, true).await;
    }

    /// Joins the room of the session's `seat` again: at the player's doing
    /// (a resume, a lapse ended, a game found), or, `follow`, because the
    /// room moved to another node, with this connection's claim on the
    /// seat (issue 44; none known: the lowest, so that any claim made in
    /// the room's new run wins).
    pub(super) async fn rejoin(&mut self, session: Session, seat: RoomSeat, follow: bool) {
        let presence = self.state.lobby().presence();
        let claim = if follow {
            match self.claim {
                Some((code, held)) if code == seat.code => held,
                _ => Some(0),
            }
        } else {
            None
        };
        let joined = match self.state.lobby().find_anywhere(seat.code.as_str()).await {
            Ok(handle) => {
                self.tell_blocks(&handle, &session, false).await;
                handle
                    .join(
                        self.caller(&session, None),
                        self.join_as(&session, seat.role, claim),
                        self.conn.clone(),
                    )
                    .await
                    .map(|joined| (joined, handle))
            }
            Err(e) => Err(e),
        };
        match joined {
            Ok((joined, handle)) => {
                self.claim = Some((seat.code, Some(joined.claim)));
                presence.set_room(
                    session.id,
                    Some(RoomSeat {
                        code: seat.code,
                        role: joined.role,
                    }),
                );
                self.set_room(Some(handle));
                self.look_again = None;
            }
            // The room's node cannot be reached now (its owner may have
            // died, or is handing it off as it stops, and another node takes
            // it over shortly): the seat stays this session's, and the
            // connection joins again when told where the room lives now.
            Err(
                RoomError::RoomUnavailable | RoomError::RoomClosed | RoomError::RoomNotFound(_),
            ) if self.seat_in_running_game(&session, &seat).await => {
                debug!(room = %seat.code, "the room's node cannot be reached; waiting");
                let code = seat.code;
                if !follow {
                    // The player's own join, made once the room has an owner.
                    self.claim = Some((code, None));
                }
                presence.set_room(session.id, Some(seat));
                // Told when another node takes the room over; but that may
                // have been said while this connection was still asking the
                // old owner, so it looks again shortly too.
                self.look_again = Some((Instant::now() + LOOK_AGAIN, code));
            }
            // A newer connection of the session holds the seat (issue 44):
            // this one is told so, as a replaced one is, and stays in the
            // lobby; the session's seat is untouched.
            Err(RoomError::SeatClaimedElsewhere) => {
                debug!(room = %seat.code, "the seat was taken again by a newer connection");
                self.look_again = None;
                let reason = self.word(&Words::new("closed-other-device"));
                self.send(ServerMessage::RoomClosed(splendor_protocol::RoomClosed {
                    room: seat.code.to_string(),
                    reason,
                }));
            }
            Err(e) => {
                debug!(error = %e, "could not rejoin");
                presence.forget_room(session.id, seat.code);
            }
        }
    }
}

impl Client {
    /// Where a new session of this connection comes from, and what its
    /// address may make in an hour (issue 45); none for a lifted address
    /// or a budget of 0 (unlimited).
    fn session_origin(&self) -> Option<splendor_lobby::SessionOrigin> {
        let per_hour = self.state.config().max_sessions_per_ip_per_hour;
        let client = self.budgeted_address()?;
        (per_hour > 0).then(|| splendor_lobby::SessionOrigin {
            client: client.as_str().to_owned(),
            per_hour,
        })
    }

    /// This connection's address as the per-address budgets count it:
    /// none for an address the host lifted them for
    /// (`SPLENDOR_UNLIMITED_ADDRESSES`). Bans still name it.
    pub(super) fn budgeted_address(&self) -> Option<splendor_lobby::ClientKey> {
        self.address.clone().filter(|key| {
            key.as_str()
                .parse()
                .is_ok_and(|ip| !crate::ws::unlimited(&self.state, ip))
        })
    }

    pub(super) fn who(&self) -> Who<'_> {
        Who {
            session: self.session.as_ref().map(|s| s.id.0),
            name: self.session.as_ref().map(|s| s.name.as_str()),
            address: self
                .address
                .as_ref()
                .and_then(|key| key.as_str().parse().ok()),
        }
    }

    /// Says `banned` (with until when, and the operators' reason) and
    /// closes the connection (4006).
    pub(super) fn refuse_banned(&mut self, ban: &Ban, id: Option<RequestId>) {
        let words = match ban.until_ms {
            Some(until) => Words::new("conn-banned-for")
                .count("minutes", crate::sanctions::minutes_left(until))
                .text("reason", ban.reason.clone()),
            None => Words::new("conn-banned-forever").text("reason", ban.reason.clone()),
        };
        debug!(ban = ?ban.target, "refused: banned");
        let mut error = splendor_protocol::ErrorInfo::new(ErrorCode::Banned, self.word(&words), id);
        error.until = ban.until_ms;
        self.send(ServerMessage::Error(error));
        self.conn.close(splendor_lobby::CloseReason::Banned);
    }
}
