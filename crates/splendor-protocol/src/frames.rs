//! One serialisation per action (issue 20): the parts of an action's
//! `events` and lean `state` that every viewer sees alike are written once,
//! and each viewer's frame is spliced from them and its own parts (its seat,
//! the request id it answers, its legal actions, and the holdings or events
//! only it may see).
//!
//! A frame is byte for byte what `serde_json` writes for the viewer's own
//! message (a test holds every viewer of many games to it), so a client
//! sees no change. Nothing of one viewer's own parts reaches another: a
//! viewer's holdings or events are taken from the shared copy only when
//! they are equal to it, and the shared copy is what a spectator sees.

use serde::Serialize;

use splendor_rules::Seat;

use crate::lean::LeanStateInfo;
use crate::state::EventsInfo;
use crate::{RequestId, WireAction};

/// Appends `,"key":value`.
fn field(out: &mut Vec<u8>, key: &str, value: &impl Serialize) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
    // Plain data into a Vec: serialising cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
}

fn text(bytes: Vec<u8>) -> String {
    // serde_json writes UTF-8 only.
    String::from_utf8(bytes).unwrap_or_default()
}

/// A lean `state` of one version, its shared parts serialised once.
#[derive(Debug)]
pub struct LeanStateFrames {
    /// `"state"` and `true`: the message's tag and lean flag.
    kind: &'static str,
    lean: bool,
    /// `,"room":...,"version":...`
    room_version: Vec<u8>,
    /// From `,"phase":` to the nobles.
    table: Vec<u8>,
    /// What a spectator sees of the players, and its JSON.
    players: Vec<crate::lean::LeanPlayer>,
    players_json: Vec<u8>,
    /// Where each player's entry lies in `players_json`, by seat.
    player_spans: Vec<std::ops::Range<usize>>,
    /// `,"end_triggered":...` and `,"resigned":[...]` when someone did
    end: Vec<u8>,
    /// `,"clocks":[...]` or nothing.
    clocks: Vec<u8>,
}

impl LeanStateFrames {
    /// The shared parts of `public`: the state as a spectator sees it.
    pub fn new(public: &LeanStateInfo) -> LeanStateFrames {
        // Every field by name: a field added to the message must be placed
        // here (the compiler says so) and in `frame`.
        let LeanStateInfo {
            kind,
            lean,
            id: _,
            room,
            version,
            you: _,
            phase,
            to_act,
            return_count,
            noble_choices,
            turn,
            supply,
            levels,
            nobles,
            players,
            end_triggered,
            resigned,
            legal_actions: _,
            clocks,
        } = public;
        let mut room_version = Vec::with_capacity(40);
        field(&mut room_version, "room", room);
        field(&mut room_version, "version", version);
        let mut table = Vec::with_capacity(512);
        field(&mut table, "phase", phase);
        if let Some(to_act) = to_act {
            field(&mut table, "to_act", to_act);
        }
        if let Some(count) = return_count {
            field(&mut table, "return_count", count);
        }
        if !noble_choices.is_empty() {
            field(&mut table, "noble_choices", noble_choices);
        }
        field(&mut table, "turn", turn);
        field(&mut table, "supply", supply);
        field(&mut table, "levels", levels);
        field(&mut table, "nobles", nobles);
        // `,"players":[...]` as serde writes it, each entry's place kept so
        // that a seat's own can be put in its stead.
        let mut players_json = Vec::with_capacity(1024);
        players_json.extend_from_slice(b",\"players\":[");
        let mut player_spans = Vec::with_capacity(players.len());
        for (i, player) in players.iter().enumerate() {
            if i > 0 {
                players_json.push(b',');
            }
            let start = players_json.len();
            let _ = serde_json::to_writer(&mut players_json, player);
            player_spans.push(start..players_json.len());
        }
        players_json.push(b']');
        let mut end = Vec::with_capacity(24);
        field(&mut end, "end_triggered", end_triggered);
        if !resigned.is_empty() {
            field(&mut end, "resigned", resigned);
        }
        let mut clocks_json = Vec::new();
        if let Some(clocks) = clocks {
            field(&mut clocks_json, "clocks", clocks);
        }
        LeanStateFrames {
            kind,
            lean: *lean,
            room_version,
            table,
            players: players.clone(),
            players_json,
            player_spans,
            end,
            clocks: clocks_json,
        }
    }

    /// The JSON of `own`, a viewer's lean state of the same version:
    /// exactly `serde_json::to_string(own)`.
    pub fn frame(&self, own: &LeanStateInfo) -> String {
        let players = if own.players == self.players {
            Players::Shared
        } else {
            Players::All(&own.players)
        };
        self.write(
            own.kind,
            own.lean,
            own.id.as_ref(),
            own.you,
            players,
            own.legal_actions.as_deref(),
        )
    }

    /// The JSON of the lean state a spectator gets: exactly what `frame`
    /// writes for the state it was made from.
    pub fn frame_as_spectator(&self) -> String {
        self.write(self.kind, self.lean, None, None, Players::Shared, None)
    }

    /// The JSON of the lean state of `you`, a seat that holds a card it
    /// reserved blind: it sees every other seat as a spectator does and
    /// its own holdings as `own` (its entry of its own view, R6.4,
    /// `Game::seat_view`), with its `legal_actions` when it must act:
    /// exactly what `frame` writes for that seat's own state, without
    /// building the rest of it.
    pub fn frame_for_holder(
        &self,
        you: Seat,
        own: &crate::lean::LeanPlayer,
        legal_actions: Option<&[WireAction]>,
    ) -> String {
        let players = match self.player_spans.get(usize::from(you)) {
            Some(span) if own.seat == you => Players::One(span.clone(), own),
            // Not a seat of this game: nothing of its own to show.
            _ => Players::Shared,
        };
        self.write(
            self.kind,
            self.lean,
            None,
            Some(you),
            players,
            legal_actions,
        )
    }

    /// The JSON of the lean state of `you`, a seat that sees the game as a
    /// spectator does (it holds no card reserved blind: R6.4,
    /// `Game::has_blind_reserve`), with its `legal_actions` when it must
    /// act: exactly what `frame` writes for that seat's own state, without
    /// building it.
    pub fn frame_for_seat(&self, you: Seat, legal_actions: Option<&[WireAction]>) -> String {
        self.write(
            self.kind,
            self.lean,
            None,
            Some(you),
            Players::Shared,
            legal_actions,
        )
    }

    /// A viewer's frame: its own parts around the shared ones; `players`
    /// says which of the players' entries are the viewer's own.
    fn write(
        &self,
        kind: &str,
        lean: bool,
        id: Option<&RequestId>,
        you: Option<Seat>,
        players: Players<'_>,
        legal_actions: Option<&[WireAction]>,
    ) -> String {
        let mut out = Vec::with_capacity(
            64 + self.room_version.len()
                + self.table.len()
                + self.players_json.len()
                + self.clocks.len()
                + legal_actions.map_or(0, |l| l.len() * 24),
        );
        out.extend_from_slice(b"{\"type\":");
        let _ = serde_json::to_writer(&mut out, kind);
        field(&mut out, "lean", &lean);
        if let Some(id) = id {
            field(&mut out, "id", id);
        }
        out.extend_from_slice(&self.room_version);
        if let Some(you) = you {
            field(&mut out, "you", &you);
        }
        out.extend_from_slice(&self.table);
        match players {
            Players::Shared => out.extend_from_slice(&self.players_json),
            Players::All(players) => field(&mut out, "players", &players),
            Players::One(span, own) => {
                out.extend_from_slice(&self.players_json[..span.start]);
                let _ = serde_json::to_writer(&mut out, own);
                out.extend_from_slice(&self.players_json[span.end..]);
            }
        }
        out.extend_from_slice(&self.end);
        if let Some(legal) = legal_actions {
            field(&mut out, "legal_actions", &legal);
        }
        out.extend_from_slice(&self.clocks);
        out.push(b'}');
        text(out)
    }
}

/// Which players' entries of a frame are the viewer's own.
enum Players<'a> {
    /// None: every entry is the spectator's.
    Shared,
    /// All of them (a state built whole for the viewer).
    All(&'a [crate::lean::LeanPlayer]),
    /// One seat's, at its place in the shared JSON; the rest are shared.
    One(std::ops::Range<usize>, &'a crate::lean::LeanPlayer),
}

/// The `events` of one action as lean connections get them (cards and
/// nobles by id, [`crate::lean::LeanEvents`]), their shared parts
/// serialised once.
#[derive(Debug)]
pub struct EventsFrames {
    /// `,"room":...,"version":...` and `by` when given.
    room_version_by: Vec<u8>,
    /// What a spectator sees of the events, and its JSON.
    events: Vec<crate::state::WireEvent>,
    events_json: Vec<u8>,
}

impl EventsFrames {
    /// The shared parts of `public`: the events as a spectator sees them.
    pub fn new(public: &EventsInfo) -> EventsFrames {
        let EventsInfo {
            id: _,
            room,
            version,
            by,
            events,
        } = public;
        let mut room_version_by = Vec::with_capacity(48);
        field(&mut room_version_by, "room", room);
        field(&mut room_version_by, "version", version);
        if let Some(by) = by {
            field(&mut room_version_by, "by", by);
        }
        // A lean connection's events name cards and nobles by id.
        let mut events_json = Vec::with_capacity(256);
        field(&mut events_json, "events", &crate::lean::LeanEvents(events));
        EventsFrames {
            room_version_by,
            events: events.clone(),
            events_json,
        }
    }

    /// The JSON of `own`, a viewer's events of the same action, as a lean
    /// `events` message: exactly what `serde_json` writes for
    /// [`crate::lean::LeanEventsMessage`] of it.
    pub fn frame(&self, own: &EventsInfo) -> String {
        let events = (own.events != self.events).then_some(&own.events[..]);
        self.write(own.id.as_ref(), events)
    }

    /// The JSON of the events of a viewer that sees them as a spectator
    /// does (it reserved nothing blind in this action, R6.4), answering
    /// request `id` if given: exactly what `frame` writes for that
    /// viewer's own events, without building them.
    pub fn frame_as_spectator(&self, id: Option<&RequestId>) -> String {
        self.write(id, None)
    }

    /// A viewer's frame: `events` when the viewer's differ from the
    /// spectator's.
    fn write(&self, id: Option<&RequestId>, events: Option<&[crate::state::WireEvent]>) -> String {
        let mut out = Vec::with_capacity(48 + self.room_version_by.len() + self.events_json.len());
        out.extend_from_slice(b"{\"type\":\"events\"");
        if let Some(id) = id {
            field(&mut out, "id", id);
        }
        out.extend_from_slice(&self.room_version_by);
        match events {
            None => out.extend_from_slice(&self.events_json),
            Some(events) => field(&mut out, "events", &crate::lean::LeanEvents(events)),
        }
        out.push(b'}');
        text(out)
    }
}

#[cfg(test)]
mod tests {
    use splendor_rules::{Action, Game, Options, Viewer};

    use super::*;
    use crate::lean::lean_state_info;
    use crate::server::ServerMessage;
    use crate::state::ClockInfo;
    use crate::view::{StateContext, wire_event};

    /// Every viewer's frames of every version of `games` seeded games (a
    /// few moves picked by a tiny LCG, so blind reserves happen) are what
    /// serde writes for its own message.
    #[test]
    fn spliced_frames_are_what_serde_writes_for_every_viewer() {
        let mut legal = Vec::new();
        let mut blind_reserves = 0;
        let mut seats_alike = 0;
        let mut holders = 0;
        for seed in 0..30u64 {
            let players = 2 + (seed % 3) as u8;
            let mut game = Game::new(players, Options::default(), seed).expect("a game");
            let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
            let mut pick = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let mut version = 0u64;
            while !game.is_over() && version < 400 {
                let Some(seat) = game.to_act() else { break };
                game.legal_actions(&mut legal);
                pick = pick
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let action: Action = legal[(pick >> 33) as usize % legal.len()];
                if matches!(action, Action::ReserveFromDeck(_)) {
                    blind_reserves += 1;
                }
                let events = game.apply(seat, action).expect("a legal action");
                version += 1;
                let clocks = seed.is_multiple_of(2).then(|| {
                    (0..players)
                        .map(|s| ClockInfo {
                            remaining_ms: 1000 * u64::from(s),
                            running: Some(s) == game.to_act(),
                            stand_in: s == 1,
                            bot: false,
                        })
                        .collect::<Vec<_>>()
                });
                let state_for = |viewer: Viewer, legal: &mut Vec<Action>| {
                    let you = match viewer {
                        Viewer::Seat(seat) => Some(seat),
                        Viewer::Spectator => None,
                    };
                    let legal_actions = (you.is_some() && game.to_act() == you).then(|| {
                        game.legal_actions(legal);
                        legal.iter().map(|&a| WireAction::from(a)).collect()
                    });
                    lean_state_info(
                        &game.view(viewer),
                        StateContext {
                            room: "ABCDE",
                            game: "unused",
                            commitment: "unused",
                            version,
                            you,
                            names: &names,
                            legal_actions,
                            clocks: clocks.clone(),
                        },
                    )
                };
                let events_for = |viewer: Viewer, id: Option<RequestId>| EventsInfo {
                    id,
                    room: "ABCDE".into(),
                    version,
                    by: version.is_multiple_of(5).then(|| "stand_in".to_owned()),
                    events: events
                        .iter()
                        .map(|e| wire_event(&e.redact_for(viewer)))
                        .collect(),
                };
                let state_frames = LeanStateFrames::new(&state_for(Viewer::Spectator, &mut legal));
                let events_frames = EventsFrames::new(&events_for(Viewer::Spectator, None));
                let viewers = (0..players).map(Viewer::Seat).chain([Viewer::Spectator]);
                for viewer in viewers {
                    let mut state = state_for(viewer, &mut legal);
                    // A seat without a blind reserve: its frame spliced
                    // from its seat and legal actions alone (R6.4).
                    if let Viewer::Seat(you) = viewer
                        && !game.has_blind_reserve(you)
                    {
                        seats_alike += 1;
                        assert_eq!(
                            state_frames.frame_for_seat(you, state.legal_actions.as_deref()),
                            serde_json::to_string(&state).unwrap(),
                            "seed {seed}, version {version}, {viewer:?}"
                        );
                    }
                    // A seat with one: the shared frame with its own entry
                    // in its place (R6.4).
                    if let Viewer::Seat(you) = viewer
                        && game.has_blind_reserve(you)
                    {
                        holders += 1;
                        let own = crate::lean::lean_player(
                            you,
                            &game.seat_view(you, viewer).expect("a seat"),
                        );
                        let frame = state_frames.frame_for_holder(
                            you,
                            &own,
                            state.legal_actions.as_deref(),
                        );
                        assert_eq!(
                            frame,
                            serde_json::to_string(&state).unwrap(),
                            "seed {seed}, version {version}, {viewer:?}"
                        );
                        assert_ne!(
                            frame,
                            state_frames.frame_for_seat(you, state.legal_actions.as_deref()),
                            "a holder's frame shows its blind reserve"
                        );
                    }
                    if viewer == Viewer::Spectator {
                        assert_eq!(
                            state_frames.frame_as_spectator(),
                            serde_json::to_string(&state).unwrap(),
                            "seed {seed}, version {version}"
                        );
                    }
                    if viewer == Viewer::Seat(seat) {
                        state.id = Some(RequestId::String("r-1".into()));
                    }
                    assert_eq!(
                        state_frames.frame(&state),
                        serde_json::to_string(&state).unwrap(),
                        "seed {seed}, version {version}, {viewer:?}"
                    );
                    let id = (viewer == Viewer::Seat(seat)).then(|| RequestId::Number(7.into()));
                    let own = events_for(viewer, id);
                    let frame = events_frames.frame(&own);
                    // A viewer to whom no event says more than to a
                    // spectator: its frame without its own events.
                    if events
                        .iter()
                        .all(|e| e.redact_for(viewer) == e.redact_for(Viewer::Spectator))
                    {
                        assert_eq!(
                            events_frames.frame_as_spectator(own.id.as_ref()),
                            frame,
                            "seed {seed}, version {version}, {viewer:?}"
                        );
                    }
                    assert_eq!(
                        frame,
                        serde_json::to_string(&crate::lean::LeanEventsMessage(&own)).unwrap(),
                        "seed {seed}, version {version}, {viewer:?}"
                    );
                    // Issue 24: lean events name cards by id, and read back
                    // into exactly the events the viewer may see.
                    assert!(!frame.contains("\"cost\""), "{frame}");
                    let back: ServerMessage = serde_json::from_str(&frame).unwrap();
                    assert_eq!(back, ServerMessage::Events(own), "seed {seed}, {viewer:?}");
                }
            }
        }
        assert!(
            blind_reserves > 10,
            "the games reserved blind {blind_reserves} times"
        );
        assert!(
            seats_alike > 1000,
            "{seats_alike} seats without a blind reserve"
        );
        assert!(holders > 500, "{holders} seats with a blind reserve");
    }

    /// A seat's own blind reserve is in its frame and in no one else's.
    #[test]
    fn a_blind_reserve_stays_its_owners() {
        let mut game = Game::new(2, Options::default(), 5).expect("a game");
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let reserve = *legal
            .iter()
            .find(|a| matches!(a, Action::ReserveFromDeck(_)))
            .expect("a blind reserve is legal at the start");
        let events = game.apply(0, reserve).expect("legal");
        let info = |viewer: Viewer| EventsInfo {
            id: None,
            room: "ABCDE".into(),
            version: 1,
            by: None,
            events: events
                .iter()
                .map(|e| wire_event(&e.redact_for(viewer)))
                .collect(),
        };
        let frames = EventsFrames::new(&info(Viewer::Spectator));
        let owner = frames.frame(&info(Viewer::Seat(0)));
        let other = frames.frame(&info(Viewer::Seat(1)));
        assert_ne!(owner, other, "the owner sees the card");
        assert_eq!(other, frames.frame(&info(Viewer::Spectator)));
        assert_eq!(
            owner,
            serde_json::to_string(&crate::lean::LeanEventsMessage(&info(Viewer::Seat(0)))).unwrap()
        );
        assert!(owner.contains(r#""card":11"#), "{owner}");
        assert!(other.contains(r#""card":null"#), "{other}");
    }
}
