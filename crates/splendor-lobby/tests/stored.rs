//! Rooms over the real database (splendor-store on an SQLite file): games
//! survive a new lobby, an unavailable database rejects actions without
//! changing anything, a log that moved on is reloaded, and tokens resume
//! sessions from the database.
//!
//! These tests run on the real clock (the database does real IO); they wait
//! for specific messages, with a timeout only as a safety net.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use splendor_lobby::stored::{StorePersistence, StoreSessions, action_json, replay_of};
use splendor_lobby::{
    Caller, Connection, ConnectionRx, CreateRoom, Lobby, LobbyConfig, Request, RoomError,
    RoomHandle, Session, SessionStore,
};
use splendor_lobby::{JoinAs, restore};
use splendor_protocol::{ResultInfo, Role, SeatOrder, ServerMessage, StateInfo, WireAction};
use splendor_replay::{Commitment, Salt, Seed, verify_with_commitment};
use splendor_rules::Action;
use splendor_store::{ActionRecord, Store, StoreConfig, unix_millis_now};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, SqliteConnection};
use tokio::time::timeout;

const SAFETY: Duration = Duration::from_secs(20);

struct Db {
    _dir: tempfile::TempDir,
    url: String,
}

impl Db {
    fn new() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/data/splendor.db", dir.path().display());
        Db { _dir: dir, url }
    }

    async fn open(&self) -> Store {
        self.open_with(StoreConfig::default()).await
    }

    async fn open_with(&self, config: StoreConfig) -> Store {
        Store::open_with(&self.url, config).await.unwrap()
    }

    /// A connection of its own, outside the store.
    async fn raw(&self) -> SqliteConnection {
        SqliteConnectOptions::from_str(&self.url)
            .unwrap()
            .connect()
            .await
            .unwrap()
    }
}

fn lobby_over(store: &Store) -> Lobby {
    Lobby::new(
        LobbyConfig::default(),
        Arc::new(StorePersistence::new(store.clone())),
    )
}

struct Client {
    session: Session,
    token: String,
    conn: Connection,
    rx: ConnectionRx,
}

impl Client {
    async fn new(sessions: &StoreSessions, name: &str) -> Client {
        let (session, token) = sessions.create(name).await.unwrap();
        let (conn, rx) = Connection::new(256);
        Client {
            session,
            token: token.expose().to_owned(),
            conn,
            rx,
        }
    }

    async fn recv_until(
        &mut self,
        what: &str,
        pred: impl Fn(&ServerMessage) -> bool,
    ) -> ServerMessage {
        let name = self.session.name.clone();
        timeout(SAFETY, async {
            loop {
                match self.rx.messages.recv().await.and_then(|m| m.into_message()) {
                    Some(m) if pred(&m) => return m,
                    Some(_) => {}
                    None => panic!("{name}: queue closed while waiting for {what}"),
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("{name}: no {what}"))
    }

    async fn state_at(&mut self, version: u64) -> StateInfo {
        match self
            .recv_until(
                &format!("state {version}"),
                |m| matches!(m, ServerMessage::State(s) if s.version == version),
            )
            .await
        {
            ServerMessage::State(s) => s,
            _ => unreachable!(),
        }
    }

    fn caller(&self) -> Caller {
        Caller {
            session: self.session.id,
            conn: self.conn.id(),
            request: None,
        }
    }

    async fn act(&self, room: &RoomHandle, action: Action, expect: u64) -> Result<(), RoomError> {
        let request = Request::Act {
            action,
            expect_version: Some(expect),
        };
        room.call(self.caller(), request).await.map(drop)
    }

    async fn sync(&self, room: &RoomHandle) {
        room.call(self.caller(), Request::Sync).await.unwrap();
    }
}

/// Two players in a started game; returns the room and both clients.
async fn started_game(lobby: &Lobby, sessions: &StoreSessions) -> (RoomHandle, Vec<Client>) {
    let ann = Client::new(sessions, "ann").await;
    let bob = Client::new(sessions, "bob").await;
    let room = lobby
        .create_room(CreateRoom {
            seats: 2,
            listed: false,
            host: ann.session.clone(),
            role: splendor_protocol::Role::Player,
            clock: None,
            conn: ann.conn.clone(),
            request: None,
            // Full states after every action: these tests compare whole
            // states across restarts (lean ones are tested in the room's
            // own tests and end to end).
            verbose: true,
            client: None,
            rated: false,
            tutorial: false,
        })
        .await
        .unwrap();
    room.join(
        bob.caller(),
        JoinAs {
            name: "bob".into(),
            program: false,
            role: Role::Player,
            verbose: true,
            claim: None,
        },
        bob.conn.clone(),
    )
    .await
    .unwrap();
    let start = Request::Start {
        order: SeatOrder::Joined,
    };
    room.call(ann.caller(), start).await.unwrap();
    (room, vec![ann, bob])
}

/// Each player's state at `version`; returns them and the actor's index.
async fn states(players: &mut [Client], version: u64) -> (Vec<StateInfo>, Option<usize>) {
    let mut out = Vec::new();
    for p in players.iter_mut() {
        out.push(p.state_at(version).await);
    }
    let actor = out.iter().position(|s| s.legal_actions.is_some());
    (out, actor)
}

/// A legal action from a state: a purchase when there is one (so games end).
fn pick(state: &StateInfo, n: u64) -> Action {
    let legal = state.legal_actions.as_ref().unwrap();
    let buys: Vec<&WireAction> = legal
        .iter()
        .filter(|a| matches!(a, WireAction::Buy(_)))
        .collect();
    let chosen = if buys.is_empty() {
        &legal[(n as usize * 7) % legal.len()]
    } else {
        buys[n as usize % buys.len()]
    };
    Action::try_from(chosen).unwrap()
}

/// Plays from `version` until `stop` actions are applied (or the game ends).
async fn play_until(room: &RoomHandle, players: &mut [Client], mut version: u64, stop: u64) -> u64 {
    while version < stop {
        let (states, actor) = states(players, version).await;
        let Some(actor) = actor else { break };
        players[actor]
            .act(room, pick(&states[actor], version), version)
            .await
            .unwrap();
        version += 1;
    }
    version
}

#[tokio::test]
async fn a_game_survives_a_new_lobby_and_ends_with_a_verifiable_replay() {
    let db = Db::new();
    let store = db.open().await;
    let sessions = StoreSessions::new(store.clone());
    let lobby = lobby_over(&store);
    let (room, mut players) = started_game(&lobby, &sessions).await;
    let version = play_until(&room, &mut players, 0, 12).await;
    assert_eq!(version, 12);
    let before: Vec<StateInfo> = {
        let mut out = Vec::new();
        for p in players.iter_mut() {
            p.sync(&room).await;
            out.push(p.state_at(version).await);
        }
        out
    };
    // The commitment every player got is SHA-256(salt || seed) of the stored game.
    let game_id = uuid::Uuid::parse_str(&before[0].game).unwrap();
    let stored = store.game(game_id).await.unwrap().unwrap();
    assert_eq!(stored.actions.len(), 12);
    assert!(replay_of(&stored).is_none(), "no replay of a running game");
    assert_eq!(
        before[0].commitment,
        Commitment::of(Seed(stored.seed), &Salt(stored.salt)).to_string()
    );
    assert_eq!(before[1].commitment, before[0].commitment);
    let tokens: Vec<String> = players.iter().map(|p| p.token.clone()).collect();
    drop(players);
    drop(room);
    drop(lobby);
    drop(sessions);
    store.close().await;

    // A new process: a new store, sessions and lobby over the same file.
    let store = db.open().await;
    let sessions = StoreSessions::new(store.clone());
    let lobby = lobby_over(&store);
    let summary = restore(&lobby, &store).await.unwrap();
    assert_eq!((summary.restored, summary.failed), (1, 0));
    let code = splendor_lobby::RoomCode::parse(&before[0].room).unwrap();
    let room = lobby
        .find_code(code)
        .expect("the room is back with its code");
    let mut players = Vec::new();
    for token in &tokens {
        let session = sessions
            .resume(token)
            .await
            .unwrap()
            .expect("the token survives");
        let rejoin = lobby.presence().claim(session.id, 1, &Connection::new(1).0);
        assert_eq!(
            rejoin.map(|r| r.code),
            Some(code),
            "presence knows the seat"
        );
        let (conn, rx) = Connection::new(256);
        let caller = Caller {
            session: session.id,
            conn: conn.id(),
            request: None,
        };
        room.join(
            caller,
            JoinAs {
                name: session.name.clone(),
                program: false,
                role: Role::Spectator,
                verbose: true,
                claim: None,
            },
            conn.clone(),
        )
        .await
        .unwrap();
        players.push(Client {
            session,
            token: token.clone(),
            conn,
            rx,
        });
    }
    for (p, old) in players.iter_mut().zip(&before) {
        let state = p.state_at(version).await;
        assert_eq!(&state, old, "the state is the one last acknowledged");
        // Once more, for the loop below.
        p.sync(&room).await;
    }
    // Play on to the end.
    let end = play_until(&room, &mut players, version, u64::MAX).await;
    let result = match players[0]
        .recv_until("result", |m| matches!(m, ServerMessage::Result(_)))
        .await
    {
        ServerMessage::Result(r) => r,
        _ => unreachable!(),
    };
    check_reveal(&result, &before[0].commitment);
    let stored = store.game(game_id).await.unwrap().unwrap();
    assert_eq!(stored.actions.len() as u64, end);
    let finished = stored.finished.as_ref().expect("the result is stored");
    let ranking = splendor_lobby::stored::format::parse_result_json(&finished.result_json).unwrap();
    assert_eq!(ranking.winners, result.winners);
    assert_eq!(store.unfinished_games().await.unwrap().len(), 0);
    // The whole game, across the restart, is one verifiable replay.
    let replay = replay_of(&stored).expect("finished").unwrap();
    let given: Commitment = before[0].commitment.parse().unwrap();
    let report = verify_with_commitment(&replay, &given).unwrap();
    assert_eq!(report.actions as u64, end);
    assert_eq!(report.result.winners, result.winners);
}

fn check_reveal(result: &ResultInfo, commitment: &str) {
    assert_eq!(result.reveal.commitment, commitment);
    let seed: Seed = result.reveal.seed.parse().unwrap();
    let salt: Salt = result.reveal.salt.parse().unwrap();
    assert_eq!(Commitment::of(seed, &salt).to_string(), commitment);
}

#[tokio::test]
async fn an_unavailable_database_rejects_the_action_and_the_room_recovers() {
    let db = Db::new();
    let config = StoreConfig {
        busy_timeout: Duration::from_millis(100),
        ..StoreConfig::default()
    };
    let store = db.open_with(config).await;
    let sessions = StoreSessions::new(store.clone());
    let lobby = lobby_over(&store);
    let (room, mut players) = started_game(&lobby, &sessions).await;
    let version = play_until(&room, &mut players, 0, 3).await;
    let (states, actor) = states(&mut players, version).await;
    let actor = actor.unwrap();
    let action = pick(&states[actor], version);

    // Another process holds SQLite's write lock past the busy timeout.
    let mut raw = db.raw().await;
    sqlx::raw_sql("BEGIN IMMEDIATE")
        .execute(&mut raw)
        .await
        .unwrap();
    let err = players[actor]
        .act(&room, action, version)
        .await
        .unwrap_err();
    assert_eq!(err, RoomError::StorageUnavailable);
    assert_eq!(err.code(), "storage_unavailable");
    assert_eq!(room.probe().await.unwrap().version, Some(version));
    sqlx::raw_sql("ROLLBACK").execute(&mut raw).await.unwrap();

    // Back: the same action goes through, and the first state anyone gets
    // after the failure is the next version.
    players[actor].act(&room, action, version).await.unwrap();
    for p in players.iter_mut() {
        let next = p
            .recv_until("state", |m| matches!(m, ServerMessage::State(_)))
            .await;
        assert!(matches!(next, ServerMessage::State(s) if s.version == version + 1));
    }
    let game_id = uuid::Uuid::parse_str(&states[0].game).unwrap();
    let stored = store.game(game_id).await.unwrap().unwrap();
    assert_eq!(stored.actions.len() as u64, version + 1);
}

#[tokio::test]
async fn a_log_that_moved_on_is_reloaded_and_the_late_action_refused() {
    let db = Db::new();
    let store = db.open().await;
    let sessions = StoreSessions::new(store.clone());
    let lobby = lobby_over(&store);
    let (room, mut players) = started_game(&lobby, &sessions).await;
    let (states, actor) = states(&mut players, 0).await;
    let actor = actor.unwrap();
    let legal: Vec<Action> = states[actor]
        .legal_actions
        .as_ref()
        .unwrap()
        .iter()
        .map(|a| Action::try_from(a).unwrap())
        .collect();
    // An earlier attempt was reported failed but did commit: the log holds
    // an action the room never applied.
    let game_id = uuid::Uuid::parse_str(&states[0].game).unwrap();
    store
        .append_action(ActionRecord {
            game_id,
            seq: 0,
            seat: states[actor].you.unwrap(),
            action_json: action_json(legal[0]),
            at: unix_millis_now(),
            meta_json: None,
        })
        .await
        .unwrap();
    let err = players[actor].act(&room, legal[1], 0).await.unwrap_err();
    assert_eq!(
        err,
        RoomError::StaleVersion {
            current: 1,
            expected: 0
        }
    );
    // Everyone now sees the stored game.
    for p in players.iter_mut() {
        p.state_at(1).await;
    }
    assert_eq!(room.probe().await.unwrap().version, Some(1));
}

#[tokio::test]
async fn tokens_resume_sessions_from_the_database_and_nothing_else_does() {
    let db = Db::new();
    let store = db.open().await;
    let sessions = StoreSessions::new(store.clone());
    let (ann, token) = sessions.create("ann").await.unwrap();
    sessions.rename(ann.id, "anna").await.unwrap();
    store.close().await;

    let sessions = StoreSessions::new(db.open().await);
    let resumed = sessions.resume(token.expose()).await.unwrap().unwrap();
    assert_eq!((resumed.id, resumed.name.as_str()), (ann.id, "anna"));
    assert_eq!(sessions.resume(&"0".repeat(64)).await.unwrap(), None);
    assert_eq!(sessions.resume("not a token").await.unwrap(), None);
}

/// Stores a game as the server would: its start, then `log` (whole or part).
async fn store_game(
    store: &Store,
    sessions: &StoreSessions,
    code: &str,
    seed: u64,
    actions: usize,
    at: i64,
) -> (uuid::Uuid, Vec<Action>) {
    use splendor_store::{NewGame, SeatRecord};
    let mut game = splendor_rules::Game::new(2, splendor_rules::Options::default(), seed).unwrap();
    let mut legal = Vec::new();
    let mut log = Vec::new();
    while let Some(seat) = game.to_act() {
        if log.len() == actions {
            break;
        }
        game.legal_actions(&mut legal);
        let action = legal[log.len() % legal.len()];
        game.apply(seat, action).unwrap();
        log.push((seat, action));
    }
    let mut seats = Vec::new();
    for (seat, name) in ["ann", "bob"].into_iter().enumerate() {
        let (session, _) = sessions.create(name).await.unwrap();
        seats.push(SeatRecord {
            seat: seat as u8,
            session_id: splendor_store::SessionId(session.id.0),
            name: name.into(),
            bot: None,
            program: false,
        });
    }
    let id = uuid::Uuid::from_u128(u128::from(seed) + 1);
    let salt = Salt([3; 32]);
    store
        .create_game(NewGame {
            id,
            room_code: code.into(),
            players: 2,
            options_json: serde_json::to_string(&splendor_rules::Options::default()).unwrap(),
            seed,
            salt: salt.0,
            commitment: Commitment::of(Seed(seed), &salt).to_string(),
            seats,
            created_at: at,
            clock_json: None,
            listed: false,
            rated: false,
        })
        .await
        .unwrap();
    for (seq, &(seat, action)) in log.iter().enumerate() {
        store
            .append_action(ActionRecord {
                game_id: id,
                seq: seq as u32,
                seat,
                action_json: action_json(action),
                at,
                meta_json: None,
            })
            .await
            .unwrap();
    }
    (id, log.into_iter().map(|(_, a)| a).collect())
}

#[tokio::test]
async fn restore_finishes_over_games_skips_abandoned_ones_and_reports_broken_ones() {
    let db = Db::new();
    let store = db.open().await;
    let sessions = StoreSessions::new(store.clone());
    let now = unix_millis_now();
    // Over in its log, but its result was never stored (the server died).
    let (over, _) = store_game(&store, &sessions, "AAAAA", 1, usize::MAX, now).await;
    // Nobody played it for two days: abandoned.
    let two_days = 2 * 24 * 3600 * 1000;
    let (old, _) = store_game(&store, &sessions, "BBBBB", 2, 5, now - two_days).await;
    // Over two days ago, but storing its result failed then: it is not
    // abandoned, it is finished (its replay must become available).
    let (old_over, _) = store_game(&store, &sessions, "EEEEE", 5, usize::MAX, now - two_days).await;
    // Running, recent: restored.
    let (running, _) = store_game(&store, &sessions, "CCCCC", 3, 5, now).await;
    // A log the rules refuse (the action is stored for the wrong seat).
    let (broken, log) = store_game(&store, &sessions, "DDDDD", 4, 0, now).await;
    assert!(log.is_empty());
    let game = splendor_rules::Game::new(2, splendor_rules::Options::default(), 4).unwrap();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    store
        .append_action(ActionRecord {
            game_id: broken,
            seq: 0,
            seat: 1 - game.to_act().unwrap(),
            action_json: action_json(legal[0]),
            at: now,
            meta_json: None,
        })
        .await
        .unwrap();

    let lobby = lobby_over(&store);
    let summary = restore(&lobby, &store).await.unwrap();
    assert_eq!(
        (
            summary.restored,
            summary.viewable,
            summary.finished,
            summary.abandoned,
            summary.failed
        ),
        (1, 1, 1, 1, 1),
        "{summary:?}"
    );
    // The running game, and the game that just ended (viewable for the rest
    // of its viewing time); the one that ended two days ago has no room.
    assert_eq!(lobby.room_count(), 2);
    let code = splendor_lobby::RoomCode::parse("CCCCC").unwrap();
    let room = lobby.find_code(code).unwrap();
    assert_eq!(room.probe().await.unwrap().version, Some(5));
    let code = splendor_lobby::RoomCode::parse("AAAAA").unwrap();
    let room = lobby.find_code(code).unwrap();
    assert_eq!(
        room.probe().await.unwrap().status,
        splendor_protocol::RoomStatus::Finished
    );
    assert!(lobby.find("EEEEE").is_err(), "ended two days ago");
    let over = store.game(over).await.unwrap().unwrap();
    assert!(
        over.finished.is_some(),
        "the over game's result is stored now"
    );
    assert!(replay_of(&over).unwrap().is_ok());
    let old_over = store.game(old_over).await.unwrap().unwrap();
    assert!(
        old_over.finished.is_some(),
        "an old game over in its log is finished, not abandoned"
    );
    assert!(replay_of(&old_over).unwrap().is_ok());
    for untouched in [old, running, broken] {
        assert!(
            store
                .game(untouched)
                .await
                .unwrap()
                .unwrap()
                .finished
                .is_none()
        );
    }
}

/// A game the store finished before its end by the rules (deserted,
/// R12.6, or ended by the operators) is not played on after a restart: its
/// room closed when it ended (a review found it restored as running, every
/// move then refused by the store).
#[tokio::test]
async fn a_game_ended_before_its_end_is_not_played_on_after_a_restart() {
    let db = Db::new();
    let store = db.open().await;
    let sessions = StoreSessions::new(store.clone());
    let now = unix_millis_now();
    let (deserted, log) = store_game(&store, &sessions, "FFFFF", 6, 5, now).await;
    let mut game = splendor_rules::Game::new(2, splendor_rules::Options::default(), 6).unwrap();
    for action in &log {
        let seat = game.to_act().unwrap();
        game.apply(seat, *action).unwrap();
    }
    let json = splendor_lobby::stored::format::result_json(&game.deserted());
    store
        .finish_game_unrated(deserted, &json, now)
        .await
        .unwrap();

    let lobby = lobby_over(&store);
    let summary = restore(&lobby, &store).await.unwrap();
    assert_eq!(summary.restored, 0, "{summary:?}");
    assert_eq!(summary.failed, 0, "{summary:?}");
    assert!(lobby.find("FFFFF").is_err(), "no room plays it on");
    // Its replay is the deserted one and verifies.
    let stored = store.game(deserted).await.unwrap().unwrap();
    let replay = splendor_lobby::stored::replay_of(&stored).unwrap().unwrap();
    assert_eq!(replay.result.end(), splendor_rules::End::Deserted);
    splendor_replay::verify(&replay).unwrap();
}
