//! Helpers shared by the rules tests: positions built exactly through
//! snapshots, and one `ok`/`err` pair through which every action goes, so
//! that each test also checks R11.3 (a refused action changes nothing) and
//! that `legal_actions` agrees with `apply`.
#![allow(dead_code, clippy::needless_range_loop)]

use splendor_rules::{
    Action, CardId, Color, Event, Game, Gems, Layout, NobleId, Phase, ReservedCard, RuleError,
    Seat, Snapshot, Tokens,
};

/// A layout with every deck in id order: for each level the four lowest ids
/// are face up and the next id is the top of the deck. Nobles 0..=players
/// are revealed; seat 0 plays first.
pub(crate) fn ordered_layout(players: u8) -> Layout {
    let mut decks: [Vec<CardId>; 3] = Default::default();
    let mut face_up: [Vec<CardId>; 3] = Default::default();
    for level in 1..=3u8 {
        let ids: Vec<CardId> = splendor_rules::all_cards()
            .iter()
            .filter(|c| c.level.0 == level)
            .map(|c| c.id)
            .collect();
        face_up[level as usize - 1] = ids[..4].to_vec();
        decks[level as usize - 1] = ids[4..].to_vec();
    }
    Layout {
        players,
        decks,
        face_up,
        nobles: (0..=players).map(NobleId).collect(),
        first_seat: 0,
    }
}

/// A position under construction: a snapshot with helpers that keep the
/// tokens conserved.
pub(crate) struct Position(pub Snapshot);

impl Position {
    pub(crate) fn new(players: u8) -> Position {
        Position::from_layout(ordered_layout(players))
    }

    pub(crate) fn from_layout(layout: Layout) -> Position {
        let game = Game::from_layout(&layout).expect("valid layout");
        Position(game.snapshot())
    }

    /// Moves gems (white, blue, green, red, black) and gold from the supply to `seat`.
    pub(crate) fn give(mut self, seat: Seat, gems: Gems, gold: u8) -> Position {
        let s = &mut self.0.seats[seat as usize];
        for i in 0..5 {
            self.0.supply.gems[i] -= gems[i];
            s.tokens.gems[i] += gems[i];
        }
        self.0.supply.gold -= gold;
        s.tokens.gold += gold;
        self
    }

    /// Moves gems from the supply to the seats other than `except` (up to
    /// 10 tokens each) so that the supply holds exactly `left`.
    pub(crate) fn supply_gems(mut self, left: Gems, except: Seat) -> Position {
        for i in 0..5 {
            let mut extra = self.0.supply.gems[i] - left[i];
            for (s, seat) in self.0.seats.iter_mut().enumerate() {
                if s == except as usize {
                    continue;
                }
                let room = 10 - seat.tokens.total() as u8;
                let moved = room.min(extra);
                seat.tokens.gems[i] += moved;
                extra -= moved;
            }
            assert_eq!(extra, 0, "no room to park the tokens");
            self.0.supply.gems[i] = left[i];
        }
        self
    }

    /// Empties every face-up slot and every deck.
    pub(crate) fn clear_table(mut self) -> Position {
        for level in 0..3 {
            self.0.face_up[level] = [None; 4];
            let drawn = self.0.drawn[level] as usize;
            self.0.layout.decks[level].truncate(drawn);
        }
        self
    }

    pub(crate) fn end_triggered(mut self) -> Position {
        self.0.end_triggered = true;
        self
    }

    /// Gives `seat` these purchased cards (they must not be anywhere else).
    pub(crate) fn purchased(mut self, seat: Seat, cards: &[u8]) -> Position {
        for &c in cards {
            self.remove_everywhere(c);
            self.0.seats[seat as usize].purchased.push(CardId(c));
        }
        self
    }

    /// Gives `seat` a reserved card.
    pub(crate) fn reserved(mut self, seat: Seat, card: u8, from_deck: bool) -> Position {
        self.remove_everywhere(card);
        self.0.seats[seat as usize].reserved.push(ReservedCard {
            card: CardId(card),
            from_deck,
        });
        self
    }

    /// Takes a card out of the decks and face-up rows of the layout, so it
    /// can be placed elsewhere; face-up holes are filled from the deck.
    fn remove_everywhere(&mut self, card: u8) {
        let snap = &mut self.0;
        for level in 0..3 {
            let drawn = snap.drawn[level] as usize;
            if let Some(pos) = snap.layout.decks[level][drawn..]
                .iter()
                .position(|&c| c == CardId(card))
            {
                snap.layout.decks[level].remove(drawn + pos);
            }
            for slot in 0..4 {
                if snap.face_up[level][slot] == Some(CardId(card)) {
                    let next = snap.layout.decks[level].get(snap.drawn[level] as usize);
                    snap.face_up[level][slot] = next.copied();
                    if next.is_some() {
                        snap.drawn[level] += 1;
                    }
                }
            }
        }
    }

    /// Empties the deck of `level` (1..=3); its cards leave the game.
    pub(crate) fn empty_deck(mut self, level: u8) -> Position {
        let l = level as usize - 1;
        let drawn = self.0.drawn[l] as usize;
        self.0.layout.decks[l].truncate(drawn);
        self
    }

    pub(crate) fn nobles(mut self, nobles: &[u8]) -> Position {
        self.0.layout.nobles = nobles.iter().map(|&n| NobleId(n)).collect();
        self.0.nobles = self.0.layout.nobles.clone();
        self
    }

    pub(crate) fn first_seat(mut self, seat: Seat) -> Position {
        self.0.layout.first_seat = seat;
        self.0.phase = Phase::Main { seat };
        self
    }

    /// The rulings the game is played by (a position is of today's).
    pub(crate) fn rulings(mut self, rulings: splendor_rules::Rulings) -> Position {
        self.0.rulings = rulings;
        self
    }

    pub(crate) fn seat_to_move(mut self, seat: Seat) -> Position {
        self.0.phase = Phase::Main { seat };
        self
    }

    pub(crate) fn build(self) -> Game {
        Game::from_snapshot(&self.0).expect("valid position")
    }
}

pub(crate) fn gems(white: u8, blue: u8, green: u8, red: u8, black: u8) -> Gems {
    [white, blue, green, red, black]
}

pub(crate) fn tokens(g: Gems, gold: u8) -> Tokens {
    Tokens { gems: g, gold }
}

pub(crate) fn colors(cs: &[Color]) -> splendor_rules::ColorSet {
    cs.iter().copied().collect()
}

/// Applies an action that must be accepted, and checks that it was listed
/// by `legal_actions` (explicit payments are not listed; their card is).
pub(crate) fn ok(game: &mut Game, seat: Seat, action: Action) -> Vec<Event> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let listed = match action {
        Action::Buy {
            card,
            gold: Some(_),
        } => legal.contains(&Action::Buy { card, gold: None }),
        other => legal.contains(&other),
    };
    assert!(listed, "{action} is not among the legal actions {legal:?}");
    match game.apply(seat, action) {
        Ok(events) => events.iter().copied().collect(),
        Err(e) => panic!("{action} by seat {seat} refused: {e}"),
    }
}

/// Applies an action that must be refused; checks that nothing changed and
/// that it was not listed, and returns the error.
pub(crate) fn err(game: &mut Game, seat: Seat, action: Action) -> RuleError {
    let before = *game;
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let result = game.apply(seat, action);
    assert_eq!(*game, before, "a refused action changed the game (R11.3)");
    let error = match result {
        Ok(events) => panic!(
            "{action} by seat {seat} was accepted: {:?}",
            events.as_slice()
        ),
        Err(e) => e,
    };
    if Some(seat) == game.to_act() {
        assert!(
            !legal.contains(&action),
            "{action} is listed but refused: {error}"
        );
    }
    error
}

/// Asserts the error's code and its full text: what an English-speaking
/// player is told (the server's English words), then the rule.
pub(crate) fn assert_error(error: &RuleError, code: &str, text: &str) {
    assert_eq!(error.code, code, "{error}");
    let told = splendor_words::fluent::english(&error.words);
    assert_eq!(format!("{told} ({})", error.rule), text, "{error}");
}
