//! Practice hints (issue 26): in an unrated game against built-in bots
//! only, the player to move may ask what the `strong` player would do in
//! their place. The search gets that seat's view and nothing else (R6.4),
//! like any bot; the answer goes to the asking connection only, and the
//! move the player then makes at that position is stored as made with a
//! hint (`Mover::Hinted`), so the replay and the analysis say so. Never in
//! a rated game, never with another person at the table.

use splendor_protocol::bot_level::Level;
use splendor_protocol::{HintInfo, ServerMessage, WireAction, Words};
use splendor_rules::{Action, Seat, Viewer};
use tracing::warn;

use crate::core::RoomCore;
use crate::effect::{Effect, Think};
use crate::error::RoomError;
use crate::input::Caller;
use crate::input::HintFor;

/// What the room knows of hints for its current position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hints {
    /// A hint being thought out: for this seat at this version.
    asked: Option<(Seat, u64)>,
    /// The hint given at this position: the seat, the version, the move.
    given: Option<(Seat, u64, Action)>,
}

impl Hints {
    /// Whether `seat`'s move at `version` follows a hint given there.
    pub(crate) fn given_at(&self, seat: Seat, version: u64) -> bool {
        self.given
            .is_some_and(|(s, v, _)| s == seat && v == version)
    }
}

impl RoomCore {
    /// A hint for the caller's seat: thought out on the pool (the answer
    /// comes as a `hint` message), or sent again if given already here.
    pub(crate) fn hint(&mut self, caller: &Caller) -> Result<(), RoomError> {
        let seat = self.acting_seat(caller)? as Seat;
        let running = self.running.as_ref().ok_or(RoomError::GameNotStarted)?;
        if running.game().is_over() {
            return Err(RoomError::GameOver);
        }
        // Practice only: unrated, and every other seat a built-in bot.
        if self.rated || self.people.humans() != 1 {
            return Err(RoomError::HintNotAllowed(Words::new(
                "room-hint-practice-only",
            )));
        }
        let version = running.version();
        let standing_in = running
            .clocks()
            .is_some_and(|c| c.standing_in == Some(seat));
        if running.game().to_act() != Some(seat)
            || running.game().has_resigned(seat)
            || standing_in
            || self.bot_turn.is_some_and(|t| t.version == version)
        {
            return Err(RoomError::HintNotAllowed(Words::new(
                "room-hint-not-your-turn",
            )));
        }
        if let Some((s, v, action)) = self.hints.given
            && (s, v) == (seat, version)
        {
            self.send_hint(caller.conn, caller.request.clone(), version, action);
            return Ok(());
        }
        if self.hints.asked == Some((seat, version)) {
            // Being thought out: its answer goes to the first request.
            return Ok(());
        }
        let view = running.game().view(Viewer::Seat(seat));
        let seed = self.random_u64();
        self.hints.asked = Some((seat, version));
        self.push(Effect::Think(Box::new(Think {
            seat,
            version,
            level: Level::STRONG,
            view,
            seed,
            for_people: true,
            hint: Some(HintFor {
                session: caller.session,
                conn: caller.conn,
                request: caller.request.clone(),
            }),
        })));
        Ok(())
    }

    /// The search's answer to a hint: sent to the connection that asked,
    /// if it still speaks for the seat and the position is the same.
    pub(crate) fn hint_thought(
        &mut self,
        seat: Seat,
        version: u64,
        result: Result<Action, String>,
        to: HintFor,
    ) {
        if self.hints.asked == Some((seat, version)) {
            self.hints.asked = None;
        }
        let Some(running) = self.running.as_ref() else {
            return;
        };
        if running.version() != version
            || running.game().to_act() != Some(seat)
            || self.people.seat_of_conn(to.session, to.conn) != Some(usize::from(seat))
        {
            return; // The position is gone, or the asker is.
        }
        match result {
            Ok(action) => {
                self.hints.given = Some((seat, version, action));
                self.send_hint(to.conn, to.request, version, action);
            }
            Err(why) => warn!(seat, %why, "a hint could not be thought out"),
        }
    }

    fn send_hint(
        &mut self,
        conn: crate::conn::ConnId,
        id: Option<splendor_protocol::RequestId>,
        version: u64,
        action: Action,
    ) {
        self.send(
            conn,
            ServerMessage::Hint(HintInfo {
                id,
                version,
                action: WireAction::from(action),
            }),
        );
    }
}
