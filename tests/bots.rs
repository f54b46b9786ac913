//! The example bot (`crates/splendor-bot`) on a real server: two bots play
//! each other to the end, started from a `Config` and from the command
//! line, and a bot resumes a finished game with its token.

use std::time::Duration;

use serde_json::json;
use splendor_bot::cli::Args;
use splendor_bot::{Config, Greedy, Outcome, Progress, Random, RoomChoice, run_bot};
use splendor_e2e::{TestClient, TestServer};
use splendor_protocol::{ResultInfo, ServerMessage};
use tokio::sync::mpsc;

/// Far longer than a game between these bots takes; only a safety net.
const GAME_TIMEOUT: Duration = Duration::from_secs(120);

/// `config` reporting the code of the room it is in on `codes`.
fn reporting_code(mut config: Config, codes: mpsc::UnboundedSender<String>) -> Config {
    config.on_progress = Box::new(move |progress| {
        if let Progress::InRoom(code) = progress {
            let _ = codes.send(code.clone());
        }
    });
    config
}

/// Runs the host until its room exists, then the guest built for that
/// code; returns both outcomes and the code.
async fn play(host: Config, guest: impl FnOnce(&str) -> Config) -> (Outcome, Outcome, String) {
    let (codes, mut code_rx) = mpsc::unbounded_channel();
    let host = tokio::spawn(run_bot(reporting_code(host, codes)));
    let code = tokio::time::timeout(GAME_TIMEOUT, code_rx.recv())
        .await
        .expect("the host reports its room in time")
        .expect("the host reports its room");
    let guest = tokio::spawn(run_bot(guest(&code)));
    let (host, guest) = tokio::time::timeout(GAME_TIMEOUT, async { (host.await, guest.await) })
        .await
        .expect("the game ends in time");
    let host = host.expect("host task").expect("host outcome");
    let guest = guest.expect("guest task").expect("guest outcome");
    (host, guest, code)
}

/// Both bots saw the same finished game from their own seats.
fn check_consistent(a: &Outcome, b: &Outcome, names: [&str; 2]) {
    assert_eq!(a.result, b.result, "both bots got the same result");
    let result = &a.result;
    assert_eq!(result.ranking.len(), 2);
    let (seat_a, seat_b) = (a.seat.expect("a seat"), b.seat.expect("a seat"));
    assert_ne!(seat_a, seat_b);
    for (seat, name) in [(seat_a, names[0]), (seat_b, names[1])] {
        let line = result
            .ranking
            .iter()
            .find(|l| l.seat == seat)
            .expect("ranked");
        assert_eq!(line.name, name);
    }
    // R10.3, R10.4: best first; the winners are exactly the rank-1 seats.
    let key = |l: &splendor_protocol::RankInfo| (std::cmp::Reverse(l.points), l.cards);
    assert!(
        result.ranking.windows(2).all(|w| key(&w[0]) <= key(&w[1])),
        "{result:?}"
    );
    let firsts: Vec<u8> = result
        .ranking
        .iter()
        .filter(|l| l.rank == 1)
        .map(|l| l.seat)
        .collect();
    assert!(!result.winners.is_empty());
    assert_eq!(sorted(result.winners.clone()), sorted(firsts));
    if !result.deadlock {
        assert!(result.ranking[0].points >= 15, "{result:?}");
    }
    // Every action of the game was one of theirs, accepted once.
    assert_eq!(a.version, b.version);
    assert_eq!(
        a.actions + b.actions,
        a.version,
        "{} + {}",
        a.actions,
        b.actions
    );
    assert!(a.actions > 0 && b.actions > 0);
}

fn sorted(mut seats: Vec<u8>) -> Vec<u8> {
    seats.sort_unstable();
    seats
}

/// The result a spectator joining the finished room is shown.
async fn result_seen_by_spectator(server: &TestServer, code: &str) -> ResultInfo {
    let mut spectator = TestClient::join_server(server, "watcher").await;
    let joined = spectator
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    assert_eq!(joined["status"], "finished", "{joined}");
    match spectator
        .recv_message(|m| matches!(m, ServerMessage::Result(_)))
        .await
    {
        ServerMessage::Result(result) => result,
        _ => unreachable!(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_greedy_bot_and_a_random_bot_play_a_whole_game() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let host = Config::new(url.clone(), "greedy");
    let guest = |code: &str| Config {
        room: RoomChoice::Join {
            code: code.to_owned(),
        },
        start_when: None,
        strategy: Box::new(Random::seeded(11)),
        ..Config::new(url.clone(), "random")
    };
    let (greedy, random, code) = play(host, guest).await;
    check_consistent(&greedy, &random, ["greedy", "random"]);
    assert_eq!(
        result_seen_by_spectator(&server, &code).await,
        greedy.result
    );

    // The token resumes the session: the bot is put back into its
    // (finished) room and gets the same result again.
    let resumed = Config {
        token: Some(greedy.token.clone()),
        ..Config::new(url, "ignored")
    };
    let again = tokio::time::timeout(GAME_TIMEOUT, run_bot(resumed))
        .await
        .expect("in time")
        .expect("the resumed bot sees the result");
    assert_eq!((again.result, again.seat), (greedy.result, greedy.seat));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_started_from_the_command_line_meet_by_room_code() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    // A three-seat room that starts as soon as two are seated.
    let line = format!("--url {url} --name host --seats 3 --start-when 2");
    let host = Args::parse_words(line.split_whitespace())
        .expect("host arguments")
        .into_config();
    let guest = |code: &str| {
        let line = format!("--url {url} --name guest --join {code} --strategy greedy");
        Args::parse_words(line.split_whitespace())
            .expect("guest arguments")
            .into_config()
    };
    let (host, guest, code) = play(host, guest).await;
    check_consistent(&host, &guest, ["host", "guest"]);
    assert_eq!(result_seen_by_spectator(&server, &code).await, host.result);
    // Greedy against greedy: a real race to 15, not a deadlock.
    assert!(!host.result.deadlock);
}

#[tokio::test]
async fn a_bot_reports_a_refused_join_instead_of_waiting_forever() {
    let server = TestServer::start().await;
    let config = Config {
        room: RoomChoice::Join {
            code: "ZZZZZ".into(),
        },
        strategy: Box::new(Greedy),
        ..Config::new(server.ws_url(), "lost")
    };
    let err = tokio::time::timeout(GAME_TIMEOUT, run_bot(config))
        .await
        .expect("in time")
        .expect_err("no such room");
    assert!(err.to_string().contains("room_not_found"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_in_quick_play_meet_twice_and_are_rated_with_the_bots() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let queued = |name: &str, token: Option<String>| Config {
        room: RoomChoice::Queue { players: 2 },
        start_when: None,
        token,
        strategy: Box::new(Random::seeded(5)),
        ..Config::new(url.clone(), name)
    };
    let mut tokens = (None, None);
    let mut games = Vec::new();
    // Two games in a row on the same sessions, as `--games 2` plays them:
    // the second must not be mistaken for the first (a resumed session is
    // put back into the finished room first).
    for _ in 0..2 {
        let a = tokio::spawn(run_bot(queued("alpha", tokens.0.clone())));
        let b = tokio::spawn(run_bot(Config {
            strategy: Box::new(Greedy),
            ..queued("beta", tokens.1.clone())
        }));
        let (a, b) = tokio::time::timeout(GAME_TIMEOUT, async { (a.await, b.await) })
            .await
            .expect("the game ends in time");
        let (a, b) = (
            a.unwrap().expect("alpha's outcome"),
            b.unwrap().expect("beta's outcome"),
        );
        check_consistent(&a, &b, ["alpha", "beta"]);
        tokens = (Some(a.token.clone()), Some(b.token.clone()));
        games.push(a.result.game.clone());
    }
    assert_ne!(games[0], games[1], "two different games");
    let (status, body) = server.http_get("/api/leaderboard?kind=bots").await;
    assert_eq!(status, 200, "{body}");
    let board: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(board["total"], 2, "{board}");
    for player in board["players"].as_array().unwrap() {
        assert_eq!(player["games"], 2, "{board}");
    }
}

/// Issue 24, defect 1: a bot refused for the message rate waits what the
/// server says and plays on (it froze before: the refusal had no id). A
/// server at 5 messages a second, bursts of 5, refuses these bots, which
/// answer at once, over a game; they finish it all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_refused_for_the_message_rate_wait_and_finish_the_game() {
    let server = TestServer::start_with(splendor_server::Config {
        max_messages_per_second: 5,
        message_burst: 5,
        ..splendor_server::Config::default()
    })
    .await;
    let url = server.ws_url();
    let (refusals, mut refused) = mpsc::unbounded_channel();
    let (codes, mut code_rx) = mpsc::unbounded_channel();
    // Counts the refusals for the rate; the host also reports its room.
    let counting = |config: Config, codes: Option<mpsc::UnboundedSender<String>>| {
        let refusals = refusals.clone();
        Config {
            on_progress: Box::new(move |progress| match progress {
                Progress::Refused(error) if error.code == "rate_limited" => {
                    assert!(error.retry_after_ms.is_some(), "{error:?}");
                    let _ = refusals.send(());
                }
                Progress::InRoom(code) => {
                    if let Some(codes) = &codes {
                        let _ = codes.send(code.clone());
                    }
                }
                _ => {}
            }),
            ..config
        }
    };
    let host = tokio::spawn(run_bot(counting(
        Config::new(url.clone(), "greedy"),
        Some(codes),
    )));
    let code = tokio::time::timeout(GAME_TIMEOUT, code_rx.recv())
        .await
        .expect("the host reports its room in time")
        .expect("the host reports its room");
    let guest = Config {
        room: RoomChoice::Join { code },
        start_when: None,
        strategy: Box::new(Greedy),
        ..Config::new(url.clone(), "greedy2")
    };
    let guest = tokio::spawn(run_bot(counting(guest, None)));
    let (a, b) = tokio::time::timeout(GAME_TIMEOUT, async { (host.await, guest.await) })
        .await
        .expect("the game ends in time");
    let (a, b) = (a.unwrap().expect("host"), b.unwrap().expect("guest"));
    check_consistent(&a, &b, ["greedy", "greedy2"]);
    let mut count = 0;
    while refused.try_recv().is_ok() {
        count += 1;
    }
    assert!(
        count > 0,
        "the rate limit was never met: the test tests nothing"
    );
}

/// Issue 51: the example bot takes challenges and makes them, as the kits
/// do, from the command line. One bot waits for challenges (with its
/// owner's secret); another creates a room and challenges it by its player
/// id; they play the game to its end. A person who declines such a
/// challenge ends the challenger with who declined and why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_challenge_each_other_by_player_id_from_the_command_line() {
    let server = TestServer::start().await;
    let url = server.ws_url();
    let (ids, mut id_rx) = mpsc::unbounded_channel();
    let line = format!("--url {url} --name waiter-bot --challenges --owner waiters-secret");
    let mut waiter = Args::parse_words(line.split_whitespace())
        .expect("waiter arguments")
        .into_config();
    waiter.on_progress = Box::new(move |progress| {
        if let Progress::Welcome(welcome) = progress {
            let _ = ids.send(welcome.player_id.clone());
        }
    });
    let waiter = tokio::spawn(run_bot(waiter));
    let waiter_id = tokio::time::timeout(GAME_TIMEOUT, id_rx.recv())
        .await
        .expect("the waiter says hello in time")
        .expect("its player id");
    let line = format!(
        "--url {url} --name challenger-bot --challenge {waiter_id} --strategy random --seed 3"
    );
    let challenger = tokio::spawn(run_bot(
        Args::parse_words(line.split_whitespace())
            .expect("challenger arguments")
            .into_config(),
    ));
    let (waiter, challenger) =
        tokio::time::timeout(GAME_TIMEOUT, async { (waiter.await, challenger.await) })
            .await
            .expect("the game ends in time");
    let waiter = waiter.unwrap().expect("the waiter's outcome");
    let challenger = challenger.unwrap().expect("the challenger's outcome");
    check_consistent(&challenger, &waiter, ["challenger-bot", "waiter-bot"]);

    // A person who declines: the challenger ends with the reason.
    let mut person = TestClient::connect(&server, "dora").await;
    let welcome = person.hello().await;
    let line = format!(
        "--url {url} --name asker-bot --challenge {}",
        welcome.player_id
    );
    let asker = tokio::spawn(run_bot(
        Args::parse_words(line.split_whitespace())
            .expect("asker arguments")
            .into_config(),
    ));
    let challenge = person.recv_type("challenge").await;
    person
        .send(json!({"type": "decline", "invitation": challenge["invitation"], "reason": "later"}))
        .await;
    let ended = tokio::time::timeout(GAME_TIMEOUT, asker)
        .await
        .expect("the asker ends in time")
        .unwrap();
    match ended {
        Err(e) => assert_eq!(
            e.to_string(),
            format!(
                "dora (#{}) declined the challenge: later",
                welcome.player_id
            )
        ),
        Ok(outcome) => panic!("the declined challenger played: {outcome:?}"),
    }
}
