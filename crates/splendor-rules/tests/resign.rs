//! R13: resigning, per rule. Every action goes through `ok`/`err`
//! (tests/common), which also check R11.3 and that `legal_actions` agrees
//! with `apply`; a resignation is never among the legal actions of a turn
//! (it is its own message), so it goes through `resign` here.

mod common;

use common::{Position, assert_error, err, ok};
use splendor_rules::{Action, Event, Game, Seat, Snapshot};

/// `seat` resigns; its events.
fn resign(game: &mut Game, seat: Seat) -> Vec<Event> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    assert!(
        !legal.contains(&Action::Resign),
        "resign is listed: {legal:?}"
    );
    match game.apply(seat, Action::Resign) {
        Ok(events) => events.iter().copied().collect(),
        Err(e) => panic!("seat {seat} could not resign: {e}"),
    }
}

/// Plays the first legal action until the game is over (the stand-in's
/// part for resigned seats: for the rules they play on like any other).
fn play_out(game: &mut Game) {
    let mut legal = Vec::new();
    for _ in 0..2000 {
        let Some(seat) = game.to_act() else { return };
        game.legal_actions(&mut legal);
        // A buy when there is one, so that games end.
        let action = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Buy { .. }))
            .unwrap_or(legal[0]);
        ok(game, seat, action);
    }
    panic!("the game did not end");
}

fn ranks(game: &Game) -> Vec<(Seat, u8)> {
    let result = game.result().expect("the game is over");
    result.ranking.iter().map(|s| (s.seat, s.rank)).collect()
}

#[test]
fn r13_1_a_player_resigns_out_of_turn_and_the_game_goes_on_with_the_seat() {
    let mut game = Position::new(3).build();
    assert_eq!(game.to_act(), Some(0));
    assert_eq!(resign(&mut game, 2), [Event::Resigned { seat: 2 }]);
    // Three people, one resigned: two in play, so the game goes on (R13.2)
    // and the turn is where it was.
    assert!(!game.is_over());
    assert_eq!(game.to_act(), Some(0));
    assert!(game.has_resigned(2));
    assert_eq!(game.resigned(), [2]);
    assert_eq!(game.view(splendor_rules::Viewer::Spectator).resigned, [2]);
}

#[test]
fn r13_1_the_resigned_rank_below_every_player_in_play_whatever_they_score() {
    let mut game = Position::new(3).build();
    resign(&mut game, 0);
    play_out(&mut game);
    let result = game.result().expect("over");
    let last = result.ranking.last().expect("three seats");
    assert_eq!((last.seat, last.rank), (0, 3), "{result:?}");
    assert!(!result.winners.contains(&0));
    assert_eq!(result.resigned, [0]);
}

#[test]
fn r13_1_a_later_resignation_ranks_above_an_earlier_one() {
    let mut game = Position::new(4).build();
    resign(&mut game, 1);
    resign(&mut game, 3);
    assert!(!game.is_over(), "two people are still in play");
    let events = resign(&mut game, 0);
    // One person left in play: the game ends at once (R13.2).
    assert_eq!(events, [Event::Resigned { seat: 0 }, Event::GameOver]);
    assert_eq!(ranks(&game), [(2, 1), (0, 2), (3, 3), (1, 4)]);
    let result = game.result().expect("over");
    assert_eq!(result.winners, [2]);
    assert_eq!(result.resigned, [1, 3, 0]);
    assert!(!result.deadlock);
}

#[test]
fn r13_1_a_seat_resigns_once_and_a_finished_game_takes_no_resignation() {
    let mut game = Position::new(3).build();
    resign(&mut game, 1);
    let again = err(&mut game, 1, Action::Resign);
    assert_error(
        &again,
        "already_resigned",
        "you have resigned this game already (R13.1)",
    );
    resign(&mut game, 2);
    assert!(game.is_over());
    let over = err(&mut game, 0, Action::Resign);
    assert_eq!(over.code, "game_over");
}

#[test]
fn r13_2_with_one_person_left_the_game_ends_at_once_on_the_position_as_it_stands() {
    let mut game = Position::new(2).build();
    ok(
        &mut game,
        0,
        Action::TakeDifferent(common::colors(&[
            splendor_rules::Color::White,
            splendor_rules::Color::Blue,
            splendor_rules::Color::Red,
        ])),
    );
    // Seat 1 is to move; seat 0 resigns all the same (R13.1).
    let events = resign(&mut game, 0);
    assert_eq!(events, [Event::Resigned { seat: 0 }, Event::GameOver]);
    assert!(game.is_over());
    assert_eq!(game.to_act(), None);
    let result = game.result().expect("over");
    assert_eq!(result.winners, [1]);
    assert_eq!(ranks(&game), [(1, 1), (0, 2)]);
}

#[test]
fn r13_2_a_person_resigning_against_bots_ends_the_game_at_once() {
    // Seat 0 a person, seats 1 and 2 bots: only bots would be left.
    let mut game = Position::new(3).build().with_bots(0b110);
    let events = resign(&mut game, 0);
    assert_eq!(events, [Event::Resigned { seat: 0 }, Event::GameOver]);
    // R10.3, R10.4 among the bots (level: both 0 points, 0 cards: they
    // share the victory), the person last.
    assert_eq!(ranks(&game), [(1, 1), (2, 1), (0, 3)]);
    assert_eq!(game.result().expect("over").winners, [1, 2]);
}

#[test]
fn r13_2_one_person_and_a_bot_left_end_the_game_but_two_people_go_on() {
    // Two people and a bot: one resigns, one person is left (with a bot).
    let mut game = Position::new(3).build().with_bots(0b100);
    resign(&mut game, 1);
    assert!(game.is_over());
    // Three people and a bot: one resigns, two people go on, the stand-in
    // playing the resigned seat.
    let mut game = Position::new(4).build().with_bots(0b1000);
    resign(&mut game, 1);
    assert!(!game.is_over());
    resign(&mut game, 2);
    assert!(game.is_over());
    // The one person left ranks first, the bot below (level 0-0 with her:
    // no shared victory with a bot), the resigned last (R13.2 as amended).
    assert_eq!(ranks(&game), [(0, 1), (3, 2), (2, 3), (1, 4)]);
    let result = game.result().expect("over");
    assert_eq!(result.winners, [0]);
    assert_eq!(result.end(), splendor_rules::End::Resigned);
}

#[test]
fn r13_2_the_person_left_ranks_first_even_below_a_bot_on_points() {
    // Two people and a bot that has bought a card: one person resigns.
    let mut game = Position::new(3)
        .purchased(2, &[40])
        .build()
        .with_bots(0b100);
    resign(&mut game, 0);
    assert!(game.is_over());
    assert_eq!(ranks(&game), [(1, 1), (2, 2), (0, 3)]);
    assert_eq!(game.result().expect("over").winners, [1]);
}

#[test]
fn r13_2_a_program_is_a_person_and_only_bots_left_are_ranked_by_points() {
    // Programs connected by a client are not built-in bots: they count as
    // people (no bit in the mask). Seat 2 a built-in bot with a card.
    let mut game = Position::new(3)
        .purchased(2, &[40])
        .build()
        .with_bots(0b100);
    resign(&mut game, 1);
    // One person (seat 0, a program or not) left: first.
    assert_eq!(ranks(&game), [(0, 1), (2, 2), (1, 3)]);
    // Only bots left: R10.3 and R10.4 among them.
    let mut game = Position::new(3)
        .purchased(2, &[40])
        .build()
        .with_bots(0b110);
    resign(&mut game, 0);
    assert_eq!(ranks(&game), [(2, 1), (1, 2), (0, 3)]);
}

#[test]
fn r13_2_games_of_the_rulings_before_keep_the_shared_victory() {
    let mut game = Position::new(4)
        .rulings(splendor_rules::Rulings::FIRST)
        .build()
        .with_bots(0b1000);
    resign(&mut game, 1);
    resign(&mut game, 2);
    assert_eq!(ranks(&game), [(0, 1), (3, 1), (2, 3), (1, 4)]);
}

#[test]
fn r13_a_snapshot_keeps_who_resigned_and_who_is_a_bot() {
    let mut game = Position::new(4).build().with_bots(0b1000);
    resign(&mut game, 2);
    let snapshot = Snapshot::from(game);
    assert_eq!(snapshot.resigned, [0, 0, 1, 0]);
    assert_eq!(snapshot.bots, 0b1000);
    let back = Game::from_snapshot(&snapshot).expect("a valid snapshot");
    assert_eq!(back, game);
    // Orders that are not 1, 2, ... are refused.
    let mut bad = snapshot.clone();
    bad.resigned = [0, 2, 2, 0];
    assert!(Game::from_snapshot(&bad).is_err());
    let mut bad = snapshot;
    bad.bots = 0b1_0000;
    assert!(Game::from_snapshot(&bad).is_err());
}
