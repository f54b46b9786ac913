//! Replays of whole games verify, and every kind of tampering is caught with
//! the reason that names it.

use splendor_protocol::{WireAction, WireEvent};
use splendor_replay::{
    BuildError, Commitment, GameHeader, LogError, LoggedAction, Replay, Salt, SeatName, Seed,
    VerifyError, rebuild, verify, verify_with_commitment,
};
use splendor_rules::{Action, Game, Options};

/// A tiny deterministic agent stream (xorshift64).
struct Agent(u64);

impl Agent {
    fn pick(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn header(players: u8, seed: u64) -> GameHeader {
    GameHeader {
        game: format!("game-{players}-{seed}"),
        room: "KHPQZ".into(),
        started_at: 1_700_000_000_000,
        options: Options::default(),
        seats: (0..players)
            .map(|seat| SeatName {
                seat,
                name: ["ann", "bob", "cyd", "dee"][usize::from(seat)].into(),
                bot: None,
                program_bot: false,
            })
            .collect(),
        seed: Seed(seed),
        salt: salt(seed),
        commitment: Commitment::of(Seed(seed), &salt(seed)),
    }
}

fn salt(seed: u64) -> Salt {
    Salt(std::array::from_fn(|i| (seed as u8).wrapping_add(i as u8)))
}

/// The log of a whole game played by the agent from `seed`.
fn play(players: u8, seed: u64) -> Vec<LoggedAction> {
    let mut agent = Agent(seed | 1);
    log_of(players, Options::default(), seed, |_, legal| {
        legal[agent.pick(legal.len())]
    })
}

/// The log of a whole game from `seed` whose actions `choose` picks from
/// the legal ones.
fn log_of(
    players: u8,
    options: Options,
    seed: u64,
    mut choose: impl FnMut(&Game, &[Action]) -> Action,
) -> Vec<LoggedAction> {
    let mut game = Game::new(players, options, seed).unwrap();
    let (mut log, mut legal) = (Vec::new(), Vec::new());
    while let Some(seat) = game.to_act() {
        game.legal_actions(&mut legal);
        let action = choose(&game, &legal);
        game.apply(seat, action).unwrap();
        log.push(LoggedAction {
            seq: log.len() as u32,
            seat,
            at: 1_700_000_000_000 + log.len() as i64,
            action,
            by: None,
        });
    }
    log
}

fn replay(players: u8, seed: u64) -> Replay {
    Replay::build(
        header(players, seed),
        &play(players, seed),
        1_700_000_999_000,
    )
    .unwrap()
}

/// Verifies `replay` and asserts that it fails with `code`; returns the error.
fn check_caught(replay: &Replay, code: &str) -> VerifyError {
    let err = verify(replay).expect_err("a tampered replay must not verify");
    assert_eq!(err.code(), code, "{err}");
    err
}

#[test]
fn whole_games_of_every_size_verify_and_survive_json() {
    for players in 2..=4 {
        for seed in [1, 2, 0xdead_beef, u64::MAX] {
            let replay = replay(players, seed);
            let text = replay.to_json_pretty();
            let parsed = Replay::from_json(&text).unwrap();
            assert_eq!(parsed, replay);
            let report = verify(&parsed).unwrap_or_else(|e| panic!("{players}/{seed}: {e}"));
            assert_eq!(report.actions, replay.actions.len());
            assert_eq!(report.result, replay.result);
            assert!(!report.commitment_given);
            let printed = report.to_string();
            assert!(printed.contains("SHA-256(salt || seed)"), "{printed}");
            assert!(printed.contains("ann"), "{printed}");
        }
    }
}

#[test]
fn the_document_reveals_the_seed_and_salt_in_the_documented_text_form() {
    let replay = replay(2, 42);
    let value: serde_json::Value = serde_json::from_str(&replay.to_json_pretty()).unwrap();
    assert_eq!(value["format"], "splendor-replay/1");
    assert_eq!(value["seed"], "000000000000002a");
    // Actions and events are in their wire forms, blind reserves unredacted.
    assert!(value["actions"][0]["action"].is_object() || value["actions"][0]["action"] == "pass");
    assert!(value["actions"][0]["events"][0]["event"].is_string());
    for step in value["actions"].as_array().unwrap() {
        for event in step["events"].as_array().unwrap() {
            if event["event"] == "reserved" {
                assert!(event["card"]["id"].is_u64(), "{event}");
            }
        }
    }
    let salt = value["salt"].as_str().unwrap();
    assert_eq!(salt.len(), 64);
    // The commitment is SHA-256 of the two texts' bytes, concatenated.
    let commitment: Commitment = value["commitment"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        commitment,
        Commitment::of(Seed(42), &salt.parse::<Salt>().unwrap())
    );
}

#[test]
fn the_commitment_given_at_the_start_is_checked_when_supplied() {
    let replay = replay(3, 5);
    let report = verify_with_commitment(&replay, &replay.commitment).unwrap();
    assert!(report.commitment_given);
    assert!(report.to_string().contains("given at the start"));
    let other = Commitment([7; 32]);
    let err = verify_with_commitment(&replay, &other).unwrap_err();
    assert_eq!(err.code(), "not_the_commitment_given", "{err}");
}

#[test]
fn a_changed_seed_breaks_the_commitment() {
    let mut forged = replay(2, 11);
    forged.seed = Seed(12);
    let err = check_caught(&forged, "commitment_mismatch");
    assert!(
        err.to_string().contains("not the one committed to"),
        "{err}"
    );
}

#[test]
fn a_wrong_salt_breaks_the_commitment() {
    let mut forged = replay(2, 11);
    forged.salt.0[31] ^= 1;
    check_caught(&forged, "commitment_mismatch");
}

#[test]
fn a_changed_seed_with_a_recomputed_commitment_deals_another_layout() {
    // Someone who rewrites the commitment too is caught by the player's own
    // copy of it, and without it by the layout the new seed deals.
    let original = replay(2, 11);
    let mut forged = original.clone();
    forged.seed = Seed(12);
    forged.commitment = Commitment::of(forged.seed, &forged.salt);
    let err = verify_with_commitment(&forged, &original.commitment).unwrap_err();
    assert_eq!(err.code(), "not_the_commitment_given", "{err}");
    check_caught(&forged, "layout_mismatch");
}

#[test]
fn a_tampered_layout_names_the_part_that_differs() {
    let mut forged = replay(2, 3);
    forged.layout.decks[1].swap(0, 1);
    let err = check_caught(&forged, "layout_mismatch");
    assert!(err.to_string().contains("the level 2 deck"), "{err}");

    let mut forged = replay(2, 3);
    forged.layout.nobles.reverse();
    let err = check_caught(&forged, "layout_mismatch");
    assert!(err.to_string().contains("the nobles"), "{err}");
}

#[test]
fn an_action_by_the_wrong_seat_is_illegal() {
    let mut forged = replay(2, 21);
    forged.actions[4].seat ^= 1;
    let err = check_caught(&forged, "illegal_action");
    match err {
        VerifyError::Rejected { seq, error, .. } => {
            assert_eq!(seq, 4);
            assert_eq!(error.code, "not_your_turn");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn a_different_legal_action_is_caught_by_its_events() {
    let mut forged = replay(3, 8);
    let seq = 6;
    // The position before action `seq`, and another legal action there.
    let mut game = Game::new(3, Options::default(), 8).unwrap();
    for step in &forged.actions[..seq] {
        game.apply(step.seat, Action::try_from(&step.action).unwrap())
            .unwrap();
    }
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let recorded = Action::try_from(&forged.actions[seq].action).unwrap();
    let other = legal.into_iter().find(|&a| a != recorded).unwrap();
    forged.actions[seq].action = WireAction::from(other);
    let err = check_caught(&forged, "events_mismatch");
    assert!(err.to_string().contains("action 6"), "{err}");
}

#[test]
fn a_changed_event_is_caught() {
    let mut forged = replay(2, 4);
    let step = forged
        .actions
        .iter_mut()
        .find(|s| matches!(s.events.first(), Some(WireEvent::TookTokens { .. })))
        .expect("some token take");
    if let Some(WireEvent::TookTokens { tokens, .. }) = step.events.first_mut() {
        tokens.gold += 1;
    }
    check_caught(&forged, "events_mismatch");

    let mut forged = replay(2, 4);
    forged.actions[0].events.push(WireEvent::GameOver);
    check_caught(&forged, "events_mismatch");
}

#[test]
fn a_changed_result_is_caught() {
    let mut forged = replay(2, 9);
    forged.result.ranking[0].points += 1;
    let err = check_caught(&forged, "result_mismatch");
    assert!(err.to_string().contains("recorded"), "{err}");

    let mut forged = replay(2, 9);
    forged.result.winners = vec![forged.result.ranking[1].seat];
    check_caught(&forged, "result_mismatch");
}

#[test]
fn missing_extra_and_renumbered_actions_are_caught() {
    let original = replay(2, 13);

    let mut truncated = original.clone();
    truncated.actions.pop();
    check_caught(&truncated, "unfinished");

    let mut extra = original.clone();
    let mut last = extra.actions.last().unwrap().clone();
    last.seq += 1;
    last.action = WireAction::Pass;
    last.events = vec![];
    extra.actions.push(last);
    let err = check_caught(&extra, "illegal_action");
    assert!(matches!(err, VerifyError::Rejected { error, .. } if error.code == "game_over"));

    let mut renumbered = original.clone();
    renumbered.actions[2].seq = 3;
    check_caught(&renumbered, "sequence");

    let mut doubled = original.clone();
    doubled.actions[0].action =
        WireAction::Take(vec![splendor_rules::Color::Red, splendor_rules::Color::Red]);
    check_caught(&doubled, "action_syntax");

    let mut reordered = original;
    reordered.actions.swap(0, 1);
    reordered.actions[0].seq = 0;
    reordered.actions[1].seq = 1;
    check_caught(&reordered, "illegal_action");
}

#[test]
fn wrong_format_and_seats_are_caught_first() {
    let mut forged = replay(2, 1);
    forged.format = "splendor-replay/0".into();
    check_caught(&forged, "format");

    let mut forged = replay(2, 1);
    forged.seats.pop();
    check_caught(&forged, "seats");

    let mut forged = replay(2, 1);
    forged.players = 5;
    forged.seats.extend((2..5).map(|seat| SeatName {
        seat,
        name: "x".into(),
        bot: None,
        program_bot: false,
    }));
    check_caught(&forged, "setup");
}

#[test]
fn malformed_documents_are_refused_at_parsing_with_the_field_named() {
    let text = replay(2, 1).to_json_pretty();
    let bad_seed = text.replace("\"seed\": \"", "\"seed\": \"zz");
    let err = Replay::from_json(&bad_seed).unwrap_err();
    assert!(err.to_string().contains("seed must be 16"), "{err}");

    let extra_field = text.replacen('{', "{\"cheat\": 1,", 1);
    let err = Replay::from_json(&extra_field).unwrap_err();
    assert!(err.to_string().contains("unknown field `cheat`"), "{err}");

    let bad_action = text.replacen("\"action\": ", "\"action\": {\"steal\": 1}, \"x\": ", 1);
    let err = Replay::from_json(&bad_action).unwrap_err();
    assert!(err.to_string().contains("steal"), "{err}");

    assert!(Replay::from_json("[]").is_err());
    assert!(Replay::from_json("").is_err());
}

#[test]
fn a_replay_carries_the_recorded_commitment_not_a_recomputed_one() {
    let mut recorded = header(2, 31);
    recorded.commitment = Commitment([1; 32]);
    let replay = Replay::build(recorded, &play(2, 31), 0).unwrap();
    assert_eq!(replay.commitment, Commitment([1; 32]));
    check_caught(&replay, "commitment_mismatch");
}

#[test]
fn building_needs_a_finished_legal_log() {
    let log = play(2, 17);
    let err = Replay::build(header(2, 17), &log[..log.len() - 1], 0).unwrap_err();
    assert!(matches!(err, BuildError::Unfinished { .. }), "{err}");

    let mut bad = log.clone();
    bad[3].seat ^= 1;
    let err = Replay::build(header(2, 17), &bad, 0).unwrap_err();
    assert!(
        matches!(err, BuildError::Log(LogError::Rejected { seq: 3, .. })),
        "{err}"
    );

    let mut seats = header(2, 17);
    seats.seats.swap(0, 1);
    assert_eq!(Replay::build(seats, &log, 0), Err(BuildError::Seats));
}

#[test]
fn rebuild_restores_the_exact_game_from_any_prefix_of_its_log() {
    let log = play(4, 99);
    let mut game = Game::new(4, Options::default(), 99).unwrap();
    for n in 0..=log.len() {
        let rebuilt = rebuild(4, 0, Options::default(), Seed(99), &log[..n]).unwrap();
        assert_eq!(rebuilt, game, "after {n} actions");
        if let Some(entry) = log.get(n) {
            game.apply(entry.seat, entry.action).unwrap();
        }
    }
    let mut gap = log.clone();
    gap.remove(1);
    assert!(matches!(
        rebuild(4, 0, Options::default(), Seed(99), &gap),
        Err(LogError::Sequence { index: 1, seq: 2 })
    ));
    assert!(matches!(
        rebuild(1, 0, Options::default(), Seed(99), &[]),
        Err(LogError::Setup(_))
    ));
}

/// A log whose first 30 rounds buy and reserve nothing (each seat takes
/// tokens, returning gems when over 10), then plays on to the end by the
/// agent, under `rulings`.
fn idle_then_play(rulings: splendor_rules::Rulings, seed: u64) -> (GameHeader, Vec<LoggedAction>) {
    let options = Options {
        rulings,
        ..Options::default()
    };
    let mut header = header(2, seed);
    header.options = options;
    let mut agent = Agent(seed | 1);
    let log = log_of(2, options, seed, |game, legal| {
        if game.turn() < 60 {
            legal
                .iter()
                .copied()
                .find(|a| match a {
                    Action::TakeDifferent(_) | Action::TakeTwo(_) => true,
                    Action::ReturnTokens(t) => t.gold == 0,
                    _ => false,
                })
                .unwrap_or(legal[0])
        } else {
            // A buy when there is one, so that the game ends.
            legal
                .iter()
                .copied()
                .find(|a| matches!(a, Action::Buy { .. }))
                .unwrap_or(legal[agent.pick(legal.len())])
        }
    });
    (header, log)
}

/// R11.6 came on 2026-11-29: a game stored before keeps the result it was
/// played to. Its replay (options without `rulings`, as every replay of
/// before) verifies by the first rulings; the same log judged by today's
/// is refused where R11.6 ended the game, and today's ends it there.
#[test]
fn r11_6_a_replay_of_the_rulings_before_keeps_its_result() {
    use splendor_rules::{End, Rulings};
    let (header, log) = idle_then_play(Rulings::FIRST, 5);
    let replay = Replay::build(header, &log, 1_700_000_999_000).unwrap();
    assert_eq!(replay.result.end(), End::Points, "{:?}", replay.result);
    assert!(log.len() > 60, "the game went on past 25 idle rounds");
    // As a replay of before: no `rulings` in its options, no `end`.
    let mut value: serde_json::Value = serde_json::from_str(&replay.to_json_pretty()).unwrap();
    value["options"].as_object_mut().unwrap().remove("rulings");
    value["result"].as_object_mut().unwrap().remove("end");
    let old = Replay::from_json(&value.to_string()).unwrap();
    assert_eq!(old.options.rulings, Rulings::FIRST);
    let report = verify(&old).unwrap();
    assert_eq!(report.result.end(), End::Points);
    // Judged by today's rulings it does not verify: the action that closed
    // the 25th idle round ended the game (its events gain `game_over`).
    let mut today = old.clone();
    today.options.rulings = Rulings::CURRENT;
    let err = check_caught(&today, "events_mismatch");
    assert!(err.to_string().contains("game_over"), "{err}");
    // And today's game of the same start ends there, for no progress.
    let (header, log) = idle_then_play(Rulings::CURRENT, 5);
    let replay = Replay::build(header, &log, 1_700_000_999_000).unwrap();
    assert_eq!(replay.result.end(), End::NoProgress);
    verify(&replay).unwrap();
}
