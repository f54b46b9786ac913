//! Property tests over random complete games of 2 to 4 players: the
//! invariants of RULES.md hold after every action, `legal_actions` agrees
//! with `apply`, hidden information never reaches another seat (R6.4),
//! games terminate, and replaying the seed and the actions gives the same
//! game (R2.5).

use proptest::prelude::*;
use splendor_rules::{
    Action, CardId, Color, ColorSet, Event, Game, Level, NobleId, Options, Phase, ReservedView,
    Seat, Snapshot, Tokens, View, Viewer, card, noble,
};

/// A small deterministic generator for the choices inside one game.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const MAX_ACTIONS: usize = 5000;

fn initial_supply(players: u8) -> Tokens {
    let gems = [0, 0, 4, 5, 7][players as usize];
    Tokens {
        gems: [gems; 5],
        gold: 5,
    }
}

/// The invariants every reachable state keeps.
fn check_invariants(game: &Game) -> Result<(), TestCaseError> {
    let snap: Snapshot = game.snapshot();
    let players = game.players();
    // Tokens conserved: supply + all seats = the initial supply.
    let mut total = snap.supply;
    for seat in &snap.seats {
        for i in 0..5 {
            total.gems[i] += seat.tokens.gems[i];
        }
        total.gold += seat.tokens.gold;
    }
    prop_assert_eq!(total, initial_supply(players));
    // All 90 cards accounted for, each exactly once.
    let mut seen = [0u8; 90];
    for level in 0..3 {
        for c in &snap.layout.decks[level][snap.drawn[level] as usize..] {
            seen[c.0 as usize] += 1;
        }
        for c in snap.face_up[level].iter().flatten() {
            seen[c.0 as usize] += 1;
        }
    }
    let view = game.view(Viewer::Spectator);
    for (s, seat) in snap.seats.iter().enumerate() {
        for c in &seat.purchased {
            seen[c.0 as usize] += 1;
        }
        for r in &seat.reserved {
            seen[r.card.0 as usize] += 1;
        }
        // R6.2.
        prop_assert!(seat.reserved.len() <= 3);
        // R8.1: nobody above 10 tokens, except the seat now returning.
        let returning =
            matches!(game.phase(), Phase::ReturnTokens { seat, .. } if seat as usize == s);
        prop_assert!(
            returning || seat.tokens.total() <= 10,
            "seat {} holds {}",
            s,
            seat.tokens.total()
        );
        // Points = purchased cards + nobles (R10.3); bonuses = cards per colour.
        let card_points: u32 = seat
            .purchased
            .iter()
            .map(|&c| card(c).unwrap().points as u32)
            .sum();
        let noble_points: u32 = seat
            .nobles
            .iter()
            .map(|&n| noble(n).unwrap().points as u32)
            .sum();
        prop_assert_eq!(view.seats[s].points as u32, card_points + noble_points);
        let mut bonuses = [0u8; 5];
        for &c in &seat.purchased {
            bonuses[card(c).unwrap().bonus.index()] += 1;
        }
        prop_assert_eq!(view.seats[s].bonuses, bonuses);
    }
    prop_assert!(
        seen.iter().all(|&n| n == 1),
        "cards not accounted for: {:?}",
        seen
    );
    // The read-only accessors the built-in players' plans use say what
    // the snapshot and the view say.
    let face_up: Vec<CardId> = snap.face_up.iter().flatten().flatten().copied().collect();
    prop_assert_eq!(game.face_up_cards().collect::<Vec<_>>(), face_up);
    for (s, seat) in snap.seats.iter().enumerate() {
        let reserved: Vec<CardId> = seat.reserved.iter().map(|r| r.card).collect();
        prop_assert_eq!(game.reserved_cards(s as Seat).collect::<Vec<_>>(), reserved);
    }
    prop_assert_eq!(game.reserved_cards(players).count(), 0);
    let mut nobles = view.nobles.clone();
    nobles.sort();
    prop_assert_eq!(game.nobles_on_table().collect::<Vec<_>>(), nobles);
    Ok(())
}

/// The card ids `viewer` must never see: cards in a deck and other seats'
/// blind reserves.
fn hidden_from(snap: &Snapshot, viewer: Viewer) -> Vec<CardId> {
    let mut hidden = Vec::new();
    for level in 0..3 {
        hidden.extend_from_slice(&snap.layout.decks[level][snap.drawn[level] as usize..]);
    }
    for (s, seat) in snap.seats.iter().enumerate() {
        if viewer != Viewer::Seat(s as Seat) {
            hidden.extend(seat.reserved.iter().filter(|r| r.from_deck).map(|r| r.card));
        }
    }
    hidden
}

fn cards_in_view(view: &View) -> Vec<CardId> {
    let mut cards: Vec<CardId> = view.face_up.iter().flatten().flatten().copied().collect();
    for seat in &view.seats {
        cards.extend_from_slice(&seat.purchased);
        for r in &seat.reserved {
            if let ReservedView::Card { card, .. } = r {
                cards.push(*card);
            }
        }
    }
    cards
}

fn cards_in_event(event: &Event) -> Option<CardId> {
    match *event {
        Event::Reserved { card, .. } => card,
        Event::Bought { card, .. } | Event::Dealt { card, .. } => Some(card),
        _ => None,
    }
}

/// R6.4 for the views and the redacted events of one step.
fn check_hidden_information(game: &Game, events: &[Event]) -> Result<(), TestCaseError> {
    let snap = game.snapshot();
    let mut viewers: Vec<Viewer> = (0..game.players()).map(Viewer::Seat).collect();
    viewers.push(Viewer::Spectator);
    for viewer in viewers {
        let hidden = hidden_from(&snap, viewer);
        let view = game.view(viewer);
        // A seat sees more than a spectator exactly when it reserved blind.
        if let Viewer::Seat(seat) = viewer {
            prop_assert_eq!(
                game.has_blind_reserve(seat),
                view != game.view(Viewer::Spectator),
                "seat {}",
                seat
            );
        }
        // The difference is in the seat's own entry alone, which
        // `seat_view` gives without the rest (the server splices a seat's
        // state from the spectator's and that entry, issue 20).
        let public = game.view(Viewer::Spectator);
        for (s, entry) in view.seats.iter().enumerate() {
            let s = s as Seat;
            prop_assert_eq!(Some(entry.clone()), game.seat_view(s, viewer));
            if viewer != Viewer::Seat(s) {
                prop_assert_eq!(
                    entry,
                    &public.seats[s as usize],
                    "{:?} sees seat {}",
                    viewer,
                    s
                );
            }
        }
        prop_assert_eq!(game.seat_view(game.players(), viewer), None);
        for c in cards_in_view(&view) {
            prop_assert!(
                !hidden.contains(&c),
                "{:?} sees hidden card {}",
                viewer,
                c.0
            );
        }
        // Hidden reserves still show their level and count.
        for (s, seat) in view.seats.iter().enumerate() {
            prop_assert_eq!(seat.reserved.len(), snap.seats[s].reserved.len());
            for (r, real) in seat.reserved.iter().zip(&snap.seats[s].reserved) {
                match r {
                    ReservedView::Hidden { level } => {
                        prop_assert_eq!(*level, card(real.card).unwrap().level)
                    }
                    ReservedView::Card { card, from_deck } => {
                        prop_assert_eq!(*card, real.card);
                        prop_assert_eq!(*from_deck, real.from_deck);
                    }
                }
            }
        }
        for event in events {
            let redacted = event.redact_for(viewer);
            if let Some(c) = cards_in_event(&redacted) {
                prop_assert!(
                    !hidden.contains(&c),
                    "{:?} told hidden card {} by {:?}",
                    viewer,
                    c.0,
                    redacted
                );
            }
        }
    }
    Ok(())
}

/// An arbitrary action, mostly plausible, sometimes nonsense.
fn random_action(rng: &mut Lcg) -> Action {
    let color = Color::ALL[rng.below(5) as usize];
    let gems = |rng: &mut Lcg| std::array::from_fn(|_| rng.below(3) as u8);
    match rng.below(8) {
        0 => Action::TakeDifferent(ColorSet(rng.below(64) as u8)),
        1 => Action::TakeTwo(color),
        2 => Action::ReserveFaceUp(CardId(rng.below(95) as u8)),
        3 => Action::ReserveFromDeck(Level(rng.below(5) as u8)),
        4 => Action::Buy {
            card: CardId(rng.below(95) as u8),
            gold: if rng.below(2) == 0 {
                None
            } else {
                Some(gems(rng))
            },
        },
        5 => Action::ReturnTokens(Tokens {
            gems: gems(rng),
            gold: rng.below(2) as u8,
        }),
        6 => Action::ChooseNoble(NobleId(rng.below(12) as u8)),
        _ => Action::Pass,
    }
}

/// R7.3 as an independent model: is this explicit payment valid?
fn explicit_payment_valid(game: &Game, seat: Seat, c: CardId, gold: [u8; 5]) -> bool {
    let view = game.view(Viewer::Seat(seat));
    let me = &view.seats[seat as usize];
    let cost = card(c).unwrap().cost;
    let mut gold_used = 0u32;
    for i in 0..5 {
        let due = cost[i].saturating_sub(me.bonuses[i]);
        if gold[i] > due || due - gold[i] > me.tokens.gems[i] {
            return false;
        }
        gold_used += gold[i] as u32;
    }
    gold_used <= me.tokens.gold as u32
}

/// Plays one random game, checking everything at every step. Returns the
/// actions played.
fn play_checked(
    players: u8,
    seed: u64,
    choices: u64,
) -> Result<(Game, Vec<(Seat, Action)>), TestCaseError> {
    let mut game = Game::new(players, Options::default(), seed).unwrap();
    let mut rng = Lcg(choices);
    let mut legal = Vec::new();
    let mut played = Vec::new();
    check_invariants(&game)?;
    check_hidden_information(&game, &[])?;
    while let Some(seat) = game.to_act() {
        prop_assert!(played.len() < MAX_ACTIONS, "the game did not terminate");
        game.legal_actions(&mut legal);
        prop_assert!(!legal.is_empty());
        // Every listed action is accepted (on a copy).
        for &action in &legal {
            let mut copy = game;
            prop_assert!(
                copy.apply(seat, action).is_ok(),
                "listed {} refused",
                action
            );
        }
        // Random unlisted actions are refused and change nothing; an
        // explicit payment is accepted exactly when it is valid.
        for _ in 0..4 {
            let action = random_action(&mut rng);
            if legal.contains(&action) {
                continue;
            }
            let mut copy = game;
            let result = copy.apply(seat, action);
            match action {
                Action::Buy {
                    card: c,
                    gold: Some(gold),
                } if legal.contains(&Action::Buy {
                    card: c,
                    gold: None,
                }) =>
                {
                    prop_assert_eq!(
                        result.is_ok(),
                        explicit_payment_valid(&game, seat, c, gold),
                        "{}",
                        action
                    );
                }
                _ => {
                    prop_assert!(result.is_err(), "unlisted {} accepted", action);
                    prop_assert_eq!(copy, game);
                }
            }
            // Another seat is always refused.
            let other = (seat + 1) % players;
            let mut copy = game;
            prop_assert_eq!(
                copy.apply(other, action).map_err(|e| e.code),
                Err("not_your_turn")
            );
        }
        let action = legal[rng.below(legal.len() as u64) as usize];
        let events = game.apply(seat, action).unwrap();
        played.push((seat, action));
        prop_assert_eq!(
            events.as_slice().last() == Some(&Event::GameOver),
            game.is_over()
        );
        check_invariants(&game)?;
        check_hidden_information(&game, events.as_slice())?;
    }
    let result = game.result().unwrap();
    prop_assert!(!result.winners.is_empty());
    Ok((game, played))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_keep_every_invariant_and_replay_exactly(
        players in 2u8..=4,
        seed in any::<u64>(),
        choices in any::<u64>(),
    ) {
        let (end, played) = play_checked(players, seed, choices)?;
        // R2.5: the seed and the actions give the same game.
        let mut replay = Game::new(players, Options::default(), seed).unwrap();
        for (seat, action) in played {
            replay.apply(seat, action).unwrap();
        }
        prop_assert_eq!(replay, end);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Cheaper and more numerous: whole games without the per-step checks,
    /// for termination and the final result's shape (R10, R11.2).
    #[test]
    fn random_games_terminate_with_a_consistent_result(
        players in 2u8..=4,
        seed in any::<u64>(),
        choices in any::<u64>(),
    ) {
        let mut game = Game::new(players, Options::default(), seed).unwrap();
        let mut rng = Lcg(choices);
        let mut legal = Vec::new();
        let mut steps = 0;
        while let Some(seat) = game.to_act() {
            steps += 1;
            prop_assert!(steps < MAX_ACTIONS, "the game did not terminate");
            game.legal_actions(&mut legal);
            let action = legal[rng.below(legal.len() as u64) as usize];
            game.apply(seat, action).unwrap();
        }
        let result = game.result().unwrap();
        prop_assert_eq!(result.ranking.len(), players as usize);
        let best = result.ranking[0];
        for s in &result.ranking {
            let key = (std::cmp::Reverse(s.points), s.cards);
            prop_assert!(key >= (std::cmp::Reverse(best.points), best.cards));
            prop_assert_eq!(s.rank == 1, (s.points, s.cards) == (best.points, best.cards));
        }
        if !result.deadlock {
            // R10.1, R10.2: someone reached 15 and the round was completed.
            prop_assert!(best.points >= 15);
            prop_assert_eq!(game.turn() % players as u32, 0);
        }
    }
}

/// Plays `steps` random legal actions from a seeded game.
fn random_position(players: u8, seed: u64, steps: usize) -> Game {
    let mut game = Game::new(players, Options::default(), seed).unwrap();
    let mut rng = Lcg(seed ^ 0x5555);
    let mut legal = Vec::new();
    for _ in 0..steps {
        let Some(seat) = game.to_act() else { break };
        game.legal_actions(&mut legal);
        let action = legal[rng.below(legal.len() as u64) as usize];
        game.apply(seat, action).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Nothing a snapshot holds can make the engine panic: a damaged
    /// snapshot is refused, or it is a position the engine can play on.
    #[test]
    fn damaged_snapshots_are_refused_or_playable(
        players in 2u8..=4,
        seed in any::<u64>(),
        steps in 0usize..120,
        damage in proptest::collection::vec((0u8..14, any::<u8>(), any::<u8>()), 1..4),
    ) {
        let mut snap = random_position(players, seed, steps).snapshot();
        for (kind, a, b) in damage {
            let seats = snap.seats.len().max(1);
            let s = a as usize % seats;
            match kind {
                0 => snap.supply.gems[a as usize % 5] = b,
                1 => snap.supply.gold = b,
                2 => if let Some(seat) = snap.seats.get_mut(s) { seat.tokens.gems[b as usize % 5] = a },
                3 => if let Some(seat) = snap.seats.get_mut(s) { seat.purchased.push(CardId(b)) },
                4 => if let Some(seat) = snap.seats.get_mut(s) {
                    seat.reserved.push(splendor_rules::ReservedCard { card: CardId(b), from_deck: a % 2 == 0 })
                },
                5 => if let Some(seat) = snap.seats.get_mut(s) { seat.nobles.push(NobleId(b)) },
                6 => snap.drawn[a as usize % 3] = b,
                7 => snap.face_up[a as usize % 3][b as usize % 4] = if b > 200 { None } else { Some(CardId(b)) },
                8 => snap.phase = match a % 4 {
                    0 => Phase::Main { seat: b },
                    1 => Phase::ReturnTokens { seat: b % 5, count: a },
                    2 => Phase::ChooseNoble { seat: b % 5 },
                    _ => Phase::GameOver,
                },
                9 => snap.passes = b,
                10 => snap.nobles.push(NobleId(b)),
                11 => { snap.seats.pop(); }
                12 => snap.layout.decks[a as usize % 3].insert(0, CardId(b)),
                _ => snap.turn = u32::MAX - (b as u32),
            }
        }
        if let Ok(mut game) = Game::from_snapshot(&snap) {
            let mut legal = Vec::new();
            for _ in 0..20 {
                let Some(seat) = game.to_act() else { break };
                let _ = game.view(Viewer::Seat(seat));
                game.legal_actions(&mut legal);
                prop_assert!(!legal.is_empty());
                for &action in &legal {
                    let mut copy = game;
                    prop_assert!(copy.apply(seat, action).is_ok(), "listed {} refused", action);
                }
                game.apply(seat, legal[0]).unwrap();
            }
        }
    }
}
