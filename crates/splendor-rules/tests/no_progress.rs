//! R11.6: 25 rounds in a row without a card bought or reserved end the
//! game, at the end of the 25th, scored as R11.2 scores a deadlock. Rounds
//! are R10.2's (from the first seat to the seat before it); the returns of
//! R8 inside a turn are not progress. Games of the rulings before R11.6
//! play on. Every action goes through `ok` (tests/common), which also
//! checks R11.3 and that `legal_actions` agrees with `apply`.

mod common;

use common::{Position, ok};
use splendor_rules::{Action, End, Event, Game, NO_PROGRESS_ROUNDS, Rulings, Snapshot};

/// A position where tokens circulate without end: each seat holds 2 gold
/// (so at most 8 gems each, and the supply always has gems to take).
fn circulating(players: u8, first: u8) -> Game {
    let mut position = Position::new(players).first_seat(first);
    for seat in 0..players.min(2) {
        position = position.give(seat, common::gems(0, 0, 0, 0, 0), 2);
    }
    position.build()
}

/// One turn that makes no progress: a take (the first legal one), and,
/// above 10 tokens, a return of gems only (R8). Returns the events of
/// the turn's last action.
fn idle_turn(game: &mut Game) -> Vec<Event> {
    let mut legal = Vec::new();
    let seat = game.to_act().expect("the game runs");
    game.legal_actions(&mut legal);
    let take = legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::TakeDifferent(_) | Action::TakeTwo(_)))
        .unwrap_or_else(|| panic!("no take among {legal:?}"));
    let events = ok(game, seat, take);
    finish_turn(game, seat).unwrap_or(events)
}

/// The returns of R8 that end `seat`'s turn, if it must make any: gems
/// only. The events of the last one.
fn finish_turn(game: &mut Game, seat: u8) -> Option<Vec<Event>> {
    let mut legal = Vec::new();
    let mut last = None;
    while game.to_act() == Some(seat) && !game.is_over() {
        game.legal_actions(&mut legal);
        let back = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::ReturnTokens(t) if t.gold == 0))
            .unwrap_or_else(|| panic!("no return of gems among {legal:?}"));
        last = Some(ok(game, seat, back));
    }
    last
}

/// Plays `rounds` rounds of idle turns; fails if the game ends before.
fn idle_rounds(game: &mut Game, rounds: u32) {
    for _ in 0..rounds * u32::from(game.players()) {
        assert!(!game.is_over(), "over after {} turns", game.turn());
        idle_turn(game);
    }
}

#[test]
fn r11_6_the_25th_round_without_progress_ends_the_game_at_its_end() {
    let mut game = circulating(2, 0);
    idle_rounds(&mut game, u32::from(NO_PROGRESS_ROUNDS) - 1);
    assert_eq!(game.idle_rounds(), 24);
    // Round 25: its first turn does not end it, its last does.
    idle_turn(&mut game);
    assert!(
        !game.is_over(),
        "a round ends with the seat before the first"
    );
    let events = idle_turn(&mut game);
    assert_eq!(events.last(), Some(&Event::GameOver), "{events:?}");
    assert_eq!(game.turn(), 50);
    let result = game.result().expect("over");
    assert_eq!(result.end, Some(End::NoProgress));
    assert_eq!(result.end(), End::NoProgress);
    assert!(!result.deadlock);
    // Scored as R10.3 and R10.4: nobody bought anything, so everyone
    // shares the victory.
    assert_eq!(result.winners, [0, 1]);
}

#[test]
fn r11_6_rounds_start_at_the_first_seat_whoever_it_is() {
    // Seat 1 first: a round is seats 1, 0, and it is seat 0's turn that
    // ends the 25th.
    let mut game = circulating(2, 1);
    idle_rounds(&mut game, u32::from(NO_PROGRESS_ROUNDS) - 1);
    assert_eq!(game.to_act(), Some(1));
    idle_turn(&mut game);
    assert!(!game.is_over());
    assert_eq!(game.to_act(), Some(0), "seat 0 closes the round");
    idle_turn(&mut game);
    assert!(game.is_over());
    assert_eq!(game.turn(), 50);
    assert_eq!(game.result().expect("over").end(), End::NoProgress);
}

#[test]
fn r11_6_a_reserve_or_a_buy_in_a_round_starts_the_count_again() {
    let mut game = circulating(2, 0);
    idle_rounds(&mut game, 24);
    // Round 25: seat 0 reserves (progress), seat 1 takes.
    ok(
        &mut game,
        0,
        Action::ReserveFromDeck(splendor_rules::Level(1)),
    );
    finish_turn(&mut game, 0);
    idle_turn(&mut game);
    assert!(!game.is_over(), "the round had progress");
    assert_eq!(game.idle_rounds(), 0);
    // 24 more idle rounds do not end it, the 25th does.
    idle_rounds(&mut game, 24);
    assert_eq!(game.idle_rounds(), 24);
    idle_turn(&mut game);
    idle_turn(&mut game);
    assert_eq!(game.result().expect("over").end(), End::NoProgress);
}

#[test]
fn r11_6_returns_inside_the_rounds_are_not_progress() {
    // The idle turns above return tokens (R8) from the fourth or so on:
    // this game saw returns in its rounds, and ended all the same.
    let mut game = circulating(2, 1);
    let mut returns = 0;
    while !game.is_over() {
        let events = idle_turn(&mut game);
        returns += events
            .iter()
            .filter(|e| matches!(e, Event::ReturnedTokens { .. }))
            .count();
    }
    assert!(returns > 10, "{returns} returns");
    assert_eq!(game.turn(), 50);
    assert_eq!(game.result().expect("over").end(), End::NoProgress);
}

#[test]
fn r11_6_games_of_the_rulings_before_it_play_on() {
    let mut game = {
        let mut position = Position::new(2).rulings(Rulings::FIRST);
        for seat in 0..2 {
            position = position.give(seat, common::gems(0, 0, 0, 0, 0), 2);
        }
        position.build()
    };
    idle_rounds(&mut game, 40);
    assert!(!game.is_over());
    assert_eq!(game.idle_rounds(), 0, "not counted");
    assert_eq!(game.rulings(), Rulings::FIRST);
}

#[test]
fn r11_6_a_snapshot_keeps_the_count_and_the_rulings() {
    let mut game = circulating(2, 0);
    idle_rounds(&mut game, 10);
    idle_turn(&mut game);
    let snapshot = Snapshot::from(game);
    assert_eq!(snapshot.idle_rounds, 10);
    assert_eq!(snapshot.rulings, Rulings::CURRENT);
    let back = Game::from_snapshot(&snapshot).expect("valid");
    assert_eq!(back, game);
    // A count past the rule, or at it in a game that goes on, is refused.
    let mut bad = snapshot.clone();
    bad.idle_rounds = NO_PROGRESS_ROUNDS;
    assert!(Game::from_snapshot(&bad).is_err());
    // Rulings this server does not know are refused.
    let mut bad = snapshot.clone();
    bad.rulings = Rulings(99);
    assert!(Game::from_snapshot(&bad).is_err());
    // A snapshot of before (no rulings written) is of the first rulings.
    let mut json: serde_json::Value = serde_json::to_value(&snapshot).expect("json");
    json.as_object_mut().expect("object").remove("rulings");
    json.as_object_mut().expect("object").remove("idle_rounds");
    let old: Snapshot = serde_json::from_value(json).expect("reads");
    assert_eq!(old.rulings, Rulings::FIRST);
}

#[test]
fn a_result_of_before_is_the_same_whatever_ending_its_log_leads_to() {
    use splendor_rules::{GameResult, Standing};
    // A resignation ended this game (R13.2) while a bot had 16 points: a
    // result of before (no `end`) would be inferred as on points. It is
    // the same result as the one its replay computes (a review found the
    // replay of such a game refused).
    let recorded = GameResult {
        ranking: vec![
            Standing {
                seat: 1,
                points: 16,
                cards: 9,
                rank: 1,
            },
            Standing {
                seat: 0,
                points: 4,
                cards: 3,
                rank: 2,
            },
        ],
        winners: vec![1],
        deadlock: false,
        resigned: vec![0],
        end: None,
    };
    let replayed = GameResult {
        end: Some(End::Resigned),
        ..recorded.clone()
    };
    assert!(recorded.same_as(&replayed) && replayed.same_as(&recorded));
    assert_eq!(recorded.end(), End::Points, "inferred");
    // Two recorded endings are compared.
    let on_points = GameResult {
        end: Some(End::Points),
        ..recorded.clone()
    };
    assert!(!on_points.same_as(&replayed));
}

#[test]
fn unknown_rulings_set_up_no_game() {
    let options = splendor_rules::Options {
        rulings: Rulings(9),
        ..splendor_rules::Options::default()
    };
    assert_eq!(
        Game::new(2, options, 1),
        Err(splendor_rules::SetupError::UnknownRulings(9))
    );
}
