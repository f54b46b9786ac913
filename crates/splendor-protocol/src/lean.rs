//! Lean states (protocol 2): what every connection gets after each action
//! unless it asked for `verbose` in `hello`.
//!
//! A lean state has the same shape as a full one, with three differences:
//! each card and noble is its bare id (`12` instead of
//! `{"id":12,"level":1,...}`; the details are fixed, see
//! `GET /api/catalogue` or [`splendor_rules::card`]), what never changes
//! during a game is left out (`game`, `commitment`, `first_seat` and the
//! players' names: the full state at join, resume, start and `sync` has
//! them), and `"lean": true` says so. Top-level fields, `legal_actions` and `events` are unchanged,
//! so a client that only plays from `legal_actions` reads both alike.
//!
//! A Rust client reads a lean state as a [`StateInfo`]: [`CardInfo`] and
//! [`NobleInfo`] read from a bare id as well as from their object.

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use splendor_rules::{CardId, Color, Level, NobleId, Seat, SeatView, View};

use crate::WireAction;
use crate::ids::RequestId;
use crate::state::{CardInfo, NobleInfo, PhaseName, StateInfo};
use crate::tokens::{GemCounts, TokenCounts};
use crate::view::{StateContext, card_info, noble_info, phase_of};

/// A lean `state` message, as the server writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LeanStateInfo {
    /// Always `"state"`: a lean state is a `state` message.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Always true.
    pub lean: bool,
    /// The id of the request this answers, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The room code.
    pub room: String,
    /// The number of actions applied so far.
    pub version: u64,
    /// The receiver's seat; absent for spectators.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<Seat>,
    /// What the game waits for.
    pub phase: PhaseName,
    /// The seat that must act; absent when the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// In `return_tokens`: how many tokens must go back (R8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub return_count: Option<u8>,
    /// In `choose_noble`: the nobles to choose from, by id (R9.3).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub noble_choices: Vec<NobleId>,
    /// Turns completed so far.
    pub turn: u32,
    /// The tokens in the supply.
    pub supply: TokenCounts,
    /// Levels 1, 2, 3: deck size and face-up card ids.
    pub levels: Vec<LeanLevel>,
    /// The nobles still on the table, by id.
    pub nobles: Vec<NobleId>,
    /// One entry per seat, in seat order.
    pub players: Vec<LeanPlayer>,
    /// Set once a player reached 15 points (R10.1).
    pub end_triggered: bool,
    /// The seats whose players resigned, first to resign first (R13.1):
    /// the stand-in plays them (R13.2); absent when nobody resigned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<Seat>,
    /// For the player who must act, and only for them: every legal action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<Vec<WireAction>>,
    /// In a room with a clock (R12), one entry per seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<crate::state::ClockInfo>>,
}

/// One level of the table, cards by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LeanLevel {
    /// The level, 1 to 3.
    pub level: Level,
    /// Cards left in the deck (never their order).
    pub deck: u8,
    /// Four slots; `null` is a slot left empty by an empty deck.
    pub cards: Vec<Option<CardId>>,
}

/// One seat's holdings, cards and nobles by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LeanPlayer {
    /// The seat.
    pub seat: Seat,
    /// Points of bought cards plus nobles (R10.3).
    pub points: u8,
    /// The tokens the player holds.
    pub tokens: TokenCounts,
    /// Bonuses per colour (R7.2).
    pub bonuses: GemCounts,
    /// Purchased cards, by id, in id order.
    pub cards: Vec<CardId>,
    /// The nobles that visited the player, by id.
    pub nobles: Vec<NobleId>,
    /// The reserved cards (R6.2); `card` is `null` for another seat's blind
    /// reserve (R6.4).
    pub reserved: Vec<LeanReserved>,
}

/// A reserved card by id, or only its level for whoever may not see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct LeanReserved {
    /// The card's level, which everyone may see (R6.4).
    pub level: Level,
    /// True for a blind reserve from the top of a deck (R6.1).
    pub from_deck: bool,
    /// The card's id, or `null` when the viewer may not see it (R6.4).
    pub card: Option<CardId>,
}

/// The lean `state` for a view the rules crate produced for this receiver.
/// `ctx.game`, `ctx.commitment` and `ctx.names` are not used: a lean state
/// leaves them out.
pub fn lean_state_info(view: &View, ctx: StateContext<'_>) -> LeanStateInfo {
    let (phase, to_act, return_count) = phase_of(view);
    LeanStateInfo {
        kind: "state",
        lean: true,
        id: None,
        room: ctx.room.to_owned(),
        version: ctx.version,
        you: ctx.you,
        phase,
        to_act,
        return_count,
        noble_choices: view.noble_choices.to_vec(),
        turn: view.turn,
        supply: view.supply.into(),
        levels: (0..3)
            .map(|i| LeanLevel {
                level: Level(i as u8 + 1),
                deck: view.deck_sizes[i],
                cards: view.face_up[i].to_vec(),
            })
            .collect(),
        nobles: view.nobles.to_vec(),
        players: view
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| lean_player(i as Seat, s))
            .collect(),
        end_triggered: view.end_triggered,
        resigned: view.resigned.clone(),
        legal_actions: ctx.legal_actions,
        clocks: ctx.clocks,
    }
}

/// One seat's entry of a lean state, from what the rules crate let the
/// receiver see of it (`Game::seat_view`, R6.4).
pub fn lean_player(seat: Seat, s: &SeatView) -> LeanPlayer {
    LeanPlayer {
        seat,
        points: s.points,
        tokens: s.tokens.into(),
        bonuses: s.bonuses.into(),
        cards: s.purchased.to_vec(),
        nobles: s.nobles.to_vec(),
        reserved: s
            .reserved
            .iter()
            .map(|r| {
                let info = crate::view::reserved_info(r);
                LeanReserved {
                    level: info.level,
                    from_deck: info.from_deck,
                    card: info.card.map(|c| c.id),
                }
            })
            .collect(),
    }
}

impl StateInfo {
    /// A lean state read back, completed with what it leaves out (the
    /// game's id and commitment, the first seat, the players' names) from
    /// `full`, the last full state of the same game: the full state the
    /// server would have sent. A full state comes back as it is.
    ///
    /// Read back alone, a lean state has those fields empty, and
    /// `first_seat` 0: a client that needs them keeps the last full state
    /// (join, resume, start and `sync` send one) and calls this.
    pub fn completed_from(mut self, full: &StateInfo) -> StateInfo {
        if !self.lean {
            return self;
        }
        self.lean = false;
        self.game = full.game.clone();
        self.commitment = full.commitment.clone();
        self.first_seat = full.first_seat;
        for (player, named) in self.players.iter_mut().zip(&full.players) {
            player.name = named.name.clone();
        }
        self
    }
}

/// A card's full object, as it reads from the wire (fields a newer server
/// may add are ignored).
#[derive(Deserialize)]
struct FullCard {
    id: CardId,
    level: Level,
    bonus: Color,
    points: u8,
    cost: GemCounts,
}

/// A card as it reads from the wire: its object, or its bare id.
#[derive(Deserialize)]
#[serde(untagged)]
enum CardForm {
    Id(CardId),
    Full(FullCard),
}

impl<'de> Deserialize<'de> for CardInfo {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match CardForm::deserialize(deserializer)? {
            CardForm::Id(id) => match splendor_rules::card(id) {
                Some(_) => Ok(card_info(id)),
                None => Err(de::Error::custom(format!("{} is not a card id", id.0))),
            },
            CardForm::Full(c) => Ok(CardInfo {
                id: c.id,
                level: c.level,
                bonus: c.bonus,
                points: c.points,
                cost: c.cost,
            }),
        }
    }
}

/// A noble's full object, as it reads from the wire (fields a newer
/// server may add are ignored).
#[derive(Deserialize)]
struct FullNoble {
    id: NobleId,
    points: u8,
    requires: GemCounts,
}

/// A noble as it reads from the wire: its object, or its bare id.
#[derive(Deserialize)]
#[serde(untagged)]
enum NobleForm {
    Id(NobleId),
    Full(FullNoble),
}

impl<'de> Deserialize<'de> for NobleInfo {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match NobleForm::deserialize(deserializer)? {
            NobleForm::Id(id) => match splendor_rules::noble(id) {
                Some(_) => Ok(noble_info(id)),
                None => Err(de::Error::custom(format!("{} is not a noble id", id.0))),
            },
            NobleForm::Full(n) => Ok(NobleInfo {
                id: n.id,
                points: n.points,
                requires: n.requires,
            }),
        }
    }
}

/// Every card and noble with its details: what `GET /api/catalogue` serves,
/// so that a client of lean states can show and weigh cards by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Catalogue {
    /// The 90 development cards, by id.
    pub cards: Vec<CardInfo>,
    /// The 10 nobles, by id.
    pub nobles: Vec<NobleInfo>,
}

/// The catalogue of this server's cards and nobles.
pub fn catalogue() -> Catalogue {
    Catalogue {
        cards: splendor_rules::all_cards()
            .iter()
            .map(|c| card_info(c.id))
            .collect(),
        nobles: splendor_rules::all_nobles()
            .iter()
            .map(|n| noble_info(n.id))
            .collect(),
    }
}

/// An `events` message as a lean connection gets it (protocol 2): every
/// card and noble by its bare id, the rest as in [`EventsInfo`]; it reads
/// back into the same [`EventsInfo`] ([`CardInfo`] and [`NobleInfo`] read
/// from ids).
pub struct LeanEventsMessage<'a>(pub &'a crate::state::EventsInfo);

impl Serialize for LeanEventsMessage<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let info = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", "events")?;
        if let Some(id) = &info.id {
            map.serialize_entry("id", id)?;
        }
        map.serialize_entry("room", &info.room)?;
        map.serialize_entry("version", &info.version)?;
        if let Some(by) = &info.by {
            map.serialize_entry("by", by)?;
        }
        map.serialize_entry("events", &LeanEvents(&info.events))?;
        map.end()
    }
}

/// Events with every card and noble by its bare id.
pub struct LeanEvents<'a>(pub &'a [crate::state::WireEvent]);

impl Serialize for LeanEvents<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(LeanEvent::of))
    }
}

/// [`crate::state::WireEvent`] with ids for cards and nobles: the same tags
/// and fields in the same order.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum LeanEvent<'a> {
    TookTokens {
        seat: Seat,
        tokens: &'a TokenCounts,
    },
    Reserved {
        seat: Seat,
        level: Level,
        from_deck: bool,
        gold: bool,
        card: Option<CardId>,
    },
    Bought {
        seat: Seat,
        card: CardId,
        paid: &'a TokenCounts,
    },
    Dealt {
        level: Level,
        slot: u8,
        card: CardId,
    },
    ReturnedTokens {
        seat: Seat,
        tokens: &'a TokenCounts,
    },
    NobleVisited {
        seat: Seat,
        noble: NobleId,
    },
    Passed {
        seat: Seat,
    },
    Resigned {
        seat: Seat,
    },
    EndTriggered {
        seat: Seat,
    },
    GameOver,
}

impl<'a> LeanEvent<'a> {
    fn of(event: &'a crate::state::WireEvent) -> LeanEvent<'a> {
        use crate::state::WireEvent as W;
        match event {
            W::TookTokens { seat, tokens } => LeanEvent::TookTokens {
                seat: *seat,
                tokens,
            },
            W::Reserved {
                seat,
                level,
                from_deck,
                gold,
                card,
            } => LeanEvent::Reserved {
                seat: *seat,
                level: *level,
                from_deck: *from_deck,
                gold: *gold,
                card: card.map(|c| c.id),
            },
            W::Bought { seat, card, paid } => LeanEvent::Bought {
                seat: *seat,
                card: card.id,
                paid,
            },
            W::Dealt { level, slot, card } => LeanEvent::Dealt {
                level: *level,
                slot: *slot,
                card: card.id,
            },
            W::ReturnedTokens { seat, tokens } => LeanEvent::ReturnedTokens {
                seat: *seat,
                tokens,
            },
            W::NobleVisited { seat, noble } => LeanEvent::NobleVisited {
                seat: *seat,
                noble: noble.id,
            },
            W::Passed { seat } => LeanEvent::Passed { seat: *seat },
            W::Resigned { seat } => LeanEvent::Resigned { seat: *seat },
            W::EndTriggered { seat } => LeanEvent::EndTriggered { seat: *seat },
            W::GameOver => LeanEvent::GameOver,
        }
    }
}
