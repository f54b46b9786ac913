//! Room behaviour through the lobby's public API, without sockets.
//!
//! Every test runs on tokio's paused clock: timers fire exactly when due and
//! at once, so expiry is tested without real waiting. Tests wait for specific
//! messages, never for time to pass.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use splendor_lobby::session::BoxFuture;
use splendor_lobby::{
    CloseReason, Connection, ConnectionRx, CreateRoom, GameId, GameStart, Lobby, LobbyConfig,
    LobbyError, NoPersistence, OriginKey, PersistError, Persistence, RoomHandle, Session,
    SessionId,
};
use splendor_protocol::{
    RequestId, ResultInfo, Role, RoomInfo, RoomStatus, SeatOrder, ServerMessage, StateInfo,
    WireAction,
};
use splendor_rules::{Action, GameResult, Seat};
use tokio::time::{Instant, timeout};

/// Generous virtual time: only a missing message ever reaches it.
const SAFETY: Duration = Duration::from_secs(24 * 60 * 60);

struct Client {
    session: Session,
    conn: Connection,
    rx: ConnectionRx,
}

impl Client {
    fn new(name: &str) -> Client {
        Client::with_queue(name, 64)
    }

    fn with_queue(name: &str, queue: usize) -> Client {
        let (conn, rx) = Connection::new(queue);
        Client {
            session: Session {
                id: SessionId::random().unwrap(),
                name: name.into(),
            },
            conn,
            rx,
        }
    }

    /// The same session on a new connection.
    fn reconnect(&self) -> Client {
        let (conn, rx) = Connection::new(64);
        Client {
            session: self.session.clone(),
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
                match self.rx.messages.recv().await {
                    Some(m) if pred(&m) => return m,
                    Some(_) => {}
                    None => panic!("{name}: connection queue closed while waiting for {what}"),
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("{name}: no {what}"))
    }

    async fn room(&mut self) -> RoomInfo {
        match self
            .recv_until("room", |m| matches!(m, ServerMessage::Room(_)))
            .await
        {
            ServerMessage::Room(r) => r,
            _ => unreachable!(),
        }
    }

    async fn room_where(&mut self, pred: impl Fn(&RoomInfo) -> bool) -> RoomInfo {
        match self
            .recv_until("room", |m| matches!(m, ServerMessage::Room(r) if pred(r)))
            .await
        {
            ServerMessage::Room(r) => r,
            _ => unreachable!(),
        }
    }

    async fn state(&mut self) -> StateInfo {
        match self
            .recv_until("state", |m| matches!(m, ServerMessage::State(_)))
            .await
        {
            ServerMessage::State(s) => s,
            _ => unreachable!(),
        }
    }

    async fn join(
        &self,
        room: &RoomHandle,
        role: Role,
    ) -> Result<splendor_lobby::Joined, LobbyError> {
        room.join(self.session.clone(), self.conn.clone(), role, None)
            .await
    }

    async fn act(
        &self,
        room: &RoomHandle,
        action: Action,
        expect: Option<u64>,
    ) -> Result<(), LobbyError> {
        room.act(self.session.id, self.conn.id(), action, expect, None)
            .await
    }
}

fn lobby_with(config: LobbyConfig, persistence: Arc<dyn Persistence>) -> Lobby {
    Lobby::new(config, persistence)
}

fn lobby() -> Lobby {
    lobby_with(LobbyConfig::default(), Arc::new(NoPersistence))
}

async fn create(
    lobby: &Lobby,
    host: &mut Client,
    seats: u8,
    listed: bool,
) -> (RoomHandle, RoomInfo) {
    let handle = lobby
        .create_room(CreateRoom {
            seats,
            listed,
            host: host.session.clone(),
            conn: host.conn.clone(),
            request: Some(RequestId::String("create-1".into())),
            origin: None,
        })
        .unwrap();
    let room = host.room().await;
    assert_eq!(room.id, Some(RequestId::String("create-1".into())));
    (handle, room)
}

#[tokio::test(start_paused = true)]
async fn the_host_gets_the_room_and_others_join_by_code_in_any_case() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let mut bob = Client::new("bob");
    let (_, room) = create(&lobby, &mut ann, 3, false).await;
    assert_eq!(room.code.len(), 5);
    assert_eq!(room.status, RoomStatus::Waiting);
    assert_eq!(room.seats.len(), 3);
    let host = room.seats[0].as_ref().unwrap();
    assert!(host.host && host.connected && host.name == "ann");
    assert_eq!((room.you.role, room.you.seat), (Role::Player, Some(0)));

    let found = lobby
        .find(&format!(" {} ", room.code.to_lowercase()))
        .unwrap();
    let joined = bob.join(&found, Role::Player).await.unwrap();
    assert_eq!(joined.seat, Some(1));
    let seen_by_bob = bob.room().await;
    assert_eq!(seen_by_bob.you.seat, Some(1));
    let seen_by_ann = ann.room_where(|r| r.seats[1].is_some()).await;
    assert_eq!(seen_by_ann.seats[1].as_ref().unwrap().name, "bob");
    assert!(!seen_by_ann.seats[1].as_ref().unwrap().host);

    let malformed = lobby.find("AB0DE").unwrap_err();
    assert_eq!(malformed.code(), "room_not_found");
    let unknown_code = if room.code == "ZZZZZ" {
        "YYYYY"
    } else {
        "ZZZZZ"
    };
    let unknown = lobby.find(unknown_code).unwrap_err();
    assert_eq!(unknown, LobbyError::RoomNotFound(unknown_code.into()));
}

#[tokio::test(start_paused = true)]
async fn a_full_room_refuses_players_but_takes_spectators() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let bob = Client::new("bob");
    let mut carl = Client::new("carl");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    bob.join(&room, Role::Player).await.unwrap();
    assert_eq!(
        carl.join(&room, Role::Player).await,
        Err(LobbyError::RoomFull)
    );
    let joined = carl.join(&room, Role::Spectator).await.unwrap();
    assert_eq!((joined.role, joined.seat), (Role::Spectator, None));
    assert_eq!(carl.room().await.you.role, Role::Spectator);
    ann.room_where(|r| r.spectators == ["carl"]).await;
}

#[tokio::test(start_paused = true)]
async fn only_a_seated_host_starts_and_only_seated_players_act() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let bob = Client::new("bob");
    let carl = Client::new("carl");
    let dave = Client::new("dave");
    let (room, _) = create(&lobby, &mut ann, 4, false).await;
    let start = |c: &Client| room.start(c.session.id, c.conn.id(), SeatOrder::Random, None);
    assert_eq!(start(&ann).await, Err(LobbyError::NotEnoughPlayers));
    bob.join(&room, Role::Player).await.unwrap();
    carl.join(&room, Role::Spectator).await.unwrap();
    assert_eq!(start(&bob).await, Err(LobbyError::NotHost));
    assert_eq!(start(&dave).await, Err(LobbyError::NotInRoom));
    assert_eq!(
        carl.act(&room, Action::Pass, None).await,
        Err(LobbyError::SpectatorCannotAct)
    );
    assert_eq!(
        bob.act(&room, Action::Pass, None).await,
        Err(LobbyError::GameNotStarted)
    );
    assert_eq!(
        dave.act(&room, Action::Pass, None).await,
        Err(LobbyError::NotInRoom)
    );
    // A connection that is not the session's current one speaks for nobody.
    let stale = Client {
        session: bob.session.clone(),
        ..Client::new("bob")
    };
    assert_eq!(
        stale.act(&room, Action::Pass, None).await,
        Err(LobbyError::NotInRoom)
    );
    let snapshot = room.snapshot().await.unwrap();
    assert_eq!(
        (snapshot.status, snapshot.version),
        (RoomStatus::Waiting, None)
    );
}

#[tokio::test(start_paused = true)]
async fn the_host_role_passes_on_and_the_last_player_leaving_closes_the_room() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let mut bob = Client::new("bob");
    let (room, info) = create(&lobby, &mut ann, 2, false).await;
    bob.join(&room, Role::Player).await.unwrap();
    room.leave(
        ann.session.id,
        ann.conn.id(),
        Some(RequestId::Number(5.into())),
    )
    .await
    .unwrap();
    let left = ann
        .recv_until("left", |m| matches!(m, ServerMessage::Left(_)))
        .await;
    assert_eq!(left.request_id(), Some(&RequestId::Number(5.into())));
    let seen = bob.room_where(|r| r.seats[0].is_none()).await;
    assert!(seen.seats[1].as_ref().unwrap().host);
    assert_eq!(
        room.leave(ann.session.id, ann.conn.id(), None).await,
        Err(LobbyError::NotInRoom)
    );
    room.leave(bob.session.id, bob.conn.id(), None)
        .await
        .unwrap();
    assert_eq!(room.snapshot().await, Err(LobbyError::RoomClosed));
    assert_eq!(
        lobby.find(&info.code).unwrap_err(),
        LobbyError::RoomNotFound(info.code.clone())
    );
    assert_eq!(lobby.room_count(), 0);
}

/// A waiting room whose host's connection ends would otherwise be stuck:
/// nobody else may start it, and it never expires while someone waits in it.
#[tokio::test(start_paused = true)]
async fn a_disconnected_host_hands_the_start_to_a_connected_player() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let mut bob = Client::new("bob");
    let (room, _) = create(&lobby, &mut ann, 3, false).await;
    bob.join(&room, Role::Player).await.unwrap();
    room.detach(ann.session.id, ann.conn.id()).await;
    let seen = bob
        .room_where(|r| r.seats[0].as_ref().is_some_and(|s| !s.connected))
        .await;
    assert!(seen.seats[1].as_ref().unwrap().host, "{seen:?}");
    assert!(!seen.seats[0].as_ref().unwrap().host, "{seen:?}");
    // Ann comes back to her seat, no longer host; Bob starts the game.
    let mut ann = ann.reconnect();
    ann.join(&room, Role::Player).await.unwrap();
    assert_eq!(
        room.start(ann.session.id, ann.conn.id(), SeatOrder::Joined, None)
            .await,
        Err(LobbyError::NotHost)
    );
    room.start(bob.session.id, bob.conn.id(), SeatOrder::Joined, None)
        .await
        .unwrap();
    ann.state().await;
}

/// R2.4: with `seat_order: joined` the players sit and play in the order
/// they joined, so the first to join (the host) plays first.
#[tokio::test(start_paused = true)]
async fn in_join_order_the_first_to_join_plays_first() {
    for _ in 0..8 {
        let lobby = lobby();
        let mut ann = Client::new("ann");
        let bob = Client::new("bob");
        let mut cid = Client::new("cid");
        let (room, _) = create(&lobby, &mut ann, 3, false).await;
        bob.join(&room, Role::Player).await.unwrap();
        cid.join(&room, Role::Player).await.unwrap();
        room.start(ann.session.id, ann.conn.id(), SeatOrder::Joined, None)
            .await
            .unwrap();
        let state = ann.state().await;
        assert_eq!(state.you, Some(0));
        assert_eq!(state.first_seat, 0);
        assert_eq!(state.to_act, Some(0));
        assert_eq!(cid.state().await.you, Some(2));
    }
}

#[tokio::test(start_paused = true)]
async fn a_player_joining_a_room_whose_host_is_away_becomes_host() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let mut bob = Client::new("bob");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    room.detach(ann.session.id, ann.conn.id()).await;
    bob.join(&room, Role::Player).await.unwrap();
    let seen = bob.room().await;
    assert!(seen.seats[1].as_ref().unwrap().host, "{seen:?}");
    room.start(bob.session.id, bob.conn.id(), SeatOrder::Random, None)
        .await
        .unwrap();
    bob.state().await;
}

/// Idle TTL 10 minutes, empty-room grace 1 minute.
fn expiry_config() -> LobbyConfig {
    LobbyConfig {
        idle_room_ttl: Duration::from_secs(600),
        empty_room_ttl: Duration::from_secs(60),
        ..LobbyConfig::default()
    }
}

async fn room_closed(client: &mut Client) -> String {
    match client
        .recv_until("room_closed", |m| matches!(m, ServerMessage::RoomClosed(_)))
        .await
    {
        ServerMessage::RoomClosed(closed) => closed.reason,
        _ => unreachable!(),
    }
}

#[tokio::test(start_paused = true)]
async fn a_waiting_room_without_connected_players_closes_after_the_empty_room_grace() {
    let lobby = lobby_with(expiry_config(), Arc::new(NoPersistence));
    let mut ann = Client::new("ann");
    let mut carl = Client::new("carl");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    carl.join(&room, Role::Spectator).await.unwrap();
    let t0 = Instant::now();
    // The host's connection ends; a spectator does not keep the room alive.
    room.detach(ann.session.id, ann.conn.id()).await;
    let reason = room_closed(&mut carl).await;
    // The timer wheel counts whole milliseconds.
    let waited = t0.elapsed();
    assert!(
        (60_000..60_002).contains(&waited.as_millis()),
        "the grace, not the idle TTL: {waited:?}"
    );
    assert!(reason.contains("no player"), "{reason}");
    assert_eq!(lobby.room_count(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_player_back_within_the_grace_keeps_the_waiting_room() {
    let lobby = lobby_with(expiry_config(), Arc::new(NoPersistence));
    let mut ann = Client::new("ann");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    room.detach(ann.session.id, ann.conn.id()).await;
    tokio::time::sleep(Duration::from_secs(59)).await;
    // A reload: the same session on a new connection, just in time.
    let mut back = ann.reconnect();
    back.join(&room, Role::Player).await.unwrap();
    let t0 = Instant::now();
    // Connected again: the idle TTL applies, counted from the reconnection.
    let reason = room_closed(&mut back).await;
    let waited = t0.elapsed();
    assert!(
        (600_000..600_002).contains(&waited.as_millis()),
        "{waited:?}"
    );
    assert!(reason.contains("nothing happened"), "{reason}");
}

#[tokio::test(start_paused = true)]
async fn a_waiting_room_with_a_connected_player_closes_after_the_idle_ttl_without_activity() {
    let lobby = lobby_with(expiry_config(), Arc::new(NoPersistence));
    let mut ann = Client::new("ann");
    let bob = Client::new("bob");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    // Ann waits, connected: no grace applies, and each event in the room
    // restarts the idle clock.
    let quiet = timeout(Duration::from_secs(599), room_closed(&mut ann)).await;
    assert!(quiet.is_err(), "closed before the idle TTL");
    bob.join(&room, Role::Player).await.unwrap();
    let t0 = Instant::now();
    let quiet = timeout(Duration::from_secs(599), room_closed(&mut ann)).await;
    assert!(quiet.is_err(), "the join did not restart the idle clock");
    let reason = room_closed(&mut ann).await;
    let waited = t0.elapsed();
    assert!(
        (600_000..600_002).contains(&waited.as_millis()),
        "{waited:?}"
    );
    assert!(reason.contains("nothing happened"), "{reason}");
    assert_eq!(lobby.room_count(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_started_game_is_not_closed_by_the_waiting_room_timers() {
    let lobby = lobby_with(expiry_config(), Arc::new(NoPersistence));
    let (room, players) = started_game(&lobby, 2).await;
    for p in &players {
        room.detach(p.session.id, p.conn.id()).await;
    }
    // Far past both the grace and the idle TTL; the abandoned-game TTL is a day.
    tokio::time::sleep(Duration::from_secs(3600)).await;
    assert_eq!(room.snapshot().await.unwrap().status, RoomStatus::Playing);
}

#[tokio::test(start_paused = true)]
async fn a_slow_connection_is_dropped_and_the_room_goes_on() {
    let lobby = lobby();
    // Ann's queue holds one message and she never reads it.
    let mut ann = Client::with_queue("ann", 1);
    let mut bob = Client::new("bob");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    // `create` read the first room message; fill the queue again.
    room.sync(ann.session.id, ann.conn.id(), None)
        .await
        .unwrap();
    bob.join(&room, Role::Player).await.unwrap();
    assert_eq!(ann.rx.closed().await, CloseReason::TooSlow);
    let seen = bob
        .room_where(|r| r.seats[0].as_ref().is_some_and(|s| !s.connected))
        .await;
    assert_eq!(seen.seats[0].as_ref().unwrap().name, "ann");
    let snapshot = room.snapshot().await.unwrap();
    assert_eq!((snapshot.seated, snapshot.connected_players), (2, 1));
}

#[tokio::test(start_paused = true)]
async fn listed_rooms_show_only_listed_waiting_rooms_with_free_seats() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let mut bob = Client::new("bob");
    let carl = Client::new("carl");
    let (listed, info) = create(&lobby, &mut ann, 2, true).await;
    let (_private, _) = create(&lobby, &mut bob, 2, false).await;
    let rooms = lobby.listed_rooms();
    assert_eq!(rooms.len(), 1);
    assert_eq!(
        (
            rooms[0].code.as_str(),
            rooms[0].host.as_str(),
            rooms[0].seats,
            rooms[0].players
        ),
        (info.code.as_str(), "ann", 2, 1)
    );
    carl.join(&listed, Role::Player).await.unwrap();
    assert!(lobby.listed_rooms().is_empty(), "a full room is not listed");
}

#[tokio::test(start_paused = true)]
async fn a_reconnecting_player_gets_the_seat_back_and_replaces_the_old_connection() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let bob = Client::new("bob");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    bob.join(&room, Role::Player).await.unwrap();
    room.detach(bob.session.id, bob.conn.id()).await;
    ann.room_where(|r| r.seats[1].as_ref().is_some_and(|s| !s.connected))
        .await;
    let mut bob2 = bob.reconnect();
    assert_eq!(bob2.join(&room, Role::Player).await.unwrap().seat, Some(1));
    ann.room_where(|r| r.seats[1].as_ref().is_some_and(|s| s.connected))
        .await;
    assert_eq!(bob2.room().await.you.seat, Some(1));
    // A third connection while the second is attached replaces it.
    let bob3 = bob.reconnect();
    bob3.join(&room, Role::Spectator).await.unwrap();
    assert_eq!(bob2.rx.closed().await, CloseReason::Replaced);
    // The replaced connection can no longer act for the seat.
    assert_eq!(
        room.leave(bob.session.id, bob2.conn.id(), None).await,
        Err(LobbyError::NotInRoom)
    );
}

// ---- games (these drive the rules crate) ---------------------------------

/// Picks an action from a legal list: a purchase when there is one (so games
/// end), otherwise a pseudo-random legal action.
fn pick(legal: &[WireAction], salt: &mut u64) -> Action {
    *salt = salt
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let buys: Vec<&WireAction> = legal
        .iter()
        .filter(|a| matches!(a, WireAction::Buy(_)))
        .collect();
    let chosen = if buys.is_empty() {
        &legal[(*salt >> 33) as usize % legal.len()]
    } else {
        buys[(*salt >> 33) as usize % buys.len()]
    };
    Action::try_from(chosen).unwrap()
}

/// Plays until the game is over; returns the result and the number of actions.
async fn play_to_the_end(room: &RoomHandle, players: &mut [Client]) -> (ResultInfo, u64) {
    let mut salt = 7;
    let mut version = 0;
    loop {
        let mut actor: Option<(usize, Vec<WireAction>)> = None;
        for (i, p) in players.iter_mut().enumerate() {
            let state = p.state().await;
            assert_eq!(state.version, version, "every player sees every version");
            if let Some(legal) = state.legal_actions {
                assert_eq!(state.to_act, state.you);
                actor = Some((i, legal));
            }
        }
        let Some((i, legal)) = actor else {
            let result = match players[0]
                .recv_until("result", |m| matches!(m, ServerMessage::Result(_)))
                .await
            {
                ServerMessage::Result(r) => r,
                _ => unreachable!(),
            };
            return (result, version);
        };
        assert!(
            !legal.is_empty(),
            "the actor always has a legal action (R11.1)"
        );
        let action = pick(&legal, &mut salt);
        players[i].act(room, action, Some(version)).await.unwrap();
        version += 1;
    }
}

async fn started_game(lobby: &Lobby, n: usize) -> (RoomHandle, Vec<Client>) {
    let mut players: Vec<Client> = ["ann", "bob", "carl", "dora"][..n]
        .iter()
        .map(|name| Client::new(name))
        .collect();
    let (room, _) = create(lobby, &mut players[0], n as u8, false).await;
    for p in &players[1..] {
        p.join(&room, Role::Player).await.unwrap();
    }
    let host = &players[0];
    room.start(host.session.id, host.conn.id(), SeatOrder::Joined, None)
        .await
        .unwrap();
    (room, players)
}

#[tokio::test(start_paused = true)]
async fn a_game_runs_to_the_end_and_everyone_gets_the_result() {
    let lobby = lobby();
    let (room, mut players) = started_game(&lobby, 3).await;
    let (result, actions) = play_to_the_end(&room, &mut players).await;
    assert!(
        actions > 20,
        "a real game takes more than {actions} actions"
    );
    assert_eq!(result.ranking.len(), 3);
    assert_eq!(result.ranking[0].rank, 1);
    let snapshot = room.snapshot().await.unwrap();
    assert_eq!(
        (snapshot.status, snapshot.version),
        (RoomStatus::Finished, Some(actions))
    );
    for p in &mut players[1..] {
        p.recv_until("result", |m| matches!(m, ServerMessage::Result(_)))
            .await;
    }
    assert_eq!(
        players[0].act(&room, Action::Pass, None).await,
        Err(LobbyError::GameOver)
    );
}

#[tokio::test(start_paused = true)]
async fn stale_versions_and_rule_errors_change_nothing() {
    let lobby = lobby();
    let (room, mut players) = started_game(&lobby, 2).await;
    let mut states = Vec::new();
    for p in players.iter_mut() {
        states.push(p.state().await);
    }
    let actor = states
        .iter()
        .position(|s| s.legal_actions.is_some())
        .unwrap();
    let other = 1 - actor;
    let action = Action::try_from(&states[actor].legal_actions.as_ref().unwrap()[0]).unwrap();
    assert_eq!(
        players[actor].act(&room, action, Some(3)).await,
        Err(LobbyError::StaleVersion {
            current: 0,
            expected: 3
        })
    );
    match players[other].act(&room, action, None).await {
        Err(LobbyError::Rule(e)) => assert!(!e.rule.is_empty()),
        other => panic!("out of turn: {other:?}"),
    }
    assert_eq!(room.snapshot().await.unwrap().version, Some(0));
}

/// Fails the first `action_applied` call, then succeeds.
struct FailOnce {
    calls: AtomicU32,
}

impl Persistence for FailOnce {
    fn game_started<'a>(&'a self, _: GameStart<'a>) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }
    fn action_applied<'a>(
        &'a self,
        _: GameId,
        index: u64,
        _: Seat,
        _: Action,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        let call = self.calls.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            assert_eq!(index, 0);
            if call == 0 {
                Err(PersistError::failed("disk full"))
            } else {
                Ok(())
            }
        })
    }
    fn game_finished<'a>(
        &'a self,
        _: GameId,
        _: &'a GameResult,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }
    fn stored_log<'a>(
        &'a self,
        _: GameId,
    ) -> BoxFuture<'a, Result<Vec<(Seat, Action)>, PersistError>> {
        Box::pin(async { Err(PersistError::failed("no log in this test")) })
    }
}

#[tokio::test(start_paused = true)]
async fn a_failed_persistence_step_rejects_the_action_and_changes_nothing() {
    let lobby = lobby_with(
        LobbyConfig::default(),
        Arc::new(FailOnce {
            calls: AtomicU32::new(0),
        }),
    );
    let (room, mut players) = started_game(&lobby, 2).await;
    let mut states = Vec::new();
    for p in players.iter_mut() {
        states.push(p.state().await);
    }
    let actor = states
        .iter()
        .position(|s| s.legal_actions.is_some())
        .unwrap();
    let action = Action::try_from(&states[actor].legal_actions.as_ref().unwrap()[0]).unwrap();
    assert_eq!(
        players[actor].act(&room, action, Some(0)).await,
        Err(LobbyError::Persistence)
    );
    assert_eq!(room.snapshot().await.unwrap().version, Some(0));
    // Nothing was broadcast: the next state anyone gets is version 1.
    players[actor].act(&room, action, Some(0)).await.unwrap();
    for p in players.iter_mut() {
        assert_eq!(p.state().await.version, 1);
    }
}

/// Stores everything but the first `game_finished`, and counts those calls.
struct FinishFailsOnce {
    finish_calls: AtomicU32,
    finished: AtomicU32,
}

impl Persistence for FinishFailsOnce {
    fn game_started<'a>(&'a self, _: GameStart<'a>) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }
    fn action_applied<'a>(
        &'a self,
        _: GameId,
        _: u64,
        _: Seat,
        _: Action,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }
    fn game_finished<'a>(
        &'a self,
        _: GameId,
        _: &'a GameResult,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        let call = self.finish_calls.fetch_add(1, Ordering::SeqCst);
        Box::pin(async move {
            if call == 0 {
                Err(PersistError::unavailable("database unreachable"))
            } else {
                self.finished.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }
        })
    }
    fn stored_log<'a>(
        &'a self,
        _: GameId,
    ) -> BoxFuture<'a, Result<Vec<(Seat, Action)>, PersistError>> {
        Box::pin(async { Err(PersistError::failed("no log in this test")) })
    }
}

#[tokio::test(start_paused = true)]
async fn a_result_that_failed_to_store_is_stored_when_the_room_closes() {
    let persistence = Arc::new(FinishFailsOnce {
        finish_calls: AtomicU32::new(0),
        finished: AtomicU32::new(0),
    });
    let lobby = lobby_with(LobbyConfig::default(), persistence.clone());
    let (room, mut players) = started_game(&lobby, 2).await;
    let (result, _) = play_to_the_end(&room, &mut players).await;
    assert!(!result.ranking.is_empty());
    assert_eq!(persistence.finish_calls.load(Ordering::SeqCst), 1);
    assert_eq!(persistence.finished.load(Ordering::SeqCst), 0);
    players[0]
        .recv_until("room_closed", |m| matches!(m, ServerMessage::RoomClosed(_)))
        .await;
    assert_eq!(
        persistence.finished.load(Ordering::SeqCst),
        1,
        "the room stored the result before it closed"
    );
}

#[tokio::test(start_paused = true)]
async fn a_finished_game_stays_viewable_until_its_ttl() {
    let config = LobbyConfig {
        finished_room_ttl: Duration::from_secs(300),
        ..LobbyConfig::default()
    };
    let lobby = lobby_with(config, Arc::new(NoPersistence));
    let (room, mut players) = started_game(&lobby, 2).await;
    play_to_the_end(&room, &mut players).await;
    let finished = Instant::now();
    let mut eve = Client::new("eve");
    eve.join(&room, Role::Spectator).await.unwrap();
    assert_eq!(eve.room().await.status, RoomStatus::Finished);
    eve.state().await;
    eve.recv_until("result", |m| matches!(m, ServerMessage::Result(_)))
        .await;
    eve.recv_until("room_closed", |m| matches!(m, ServerMessage::RoomClosed(_)))
        .await;
    assert!(finished.elapsed() >= Duration::from_secs(299));
    assert_eq!(lobby.room_count(), 0);
}

// ---- limits and figures for hosting -------------------------------------

#[tokio::test(start_paused = true)]
async fn a_session_may_hold_only_so_many_open_rooms() {
    let lobby = lobby_with(
        LobbyConfig {
            max_rooms_per_session: 2,
            ..LobbyConfig::default()
        },
        Arc::new(NoPersistence),
    );
    let mut ann = Client::new("ann");
    let (first, _) = create(&lobby, &mut ann, 2, false).await;
    let mut ann_again = ann.reconnect();
    create(&lobby, &mut ann_again, 2, false).await;
    let third = ann.reconnect();
    let refused = lobby.create_room(CreateRoom {
        seats: 2,
        listed: false,
        host: third.session.clone(),
        conn: third.conn.clone(),
        request: None,
        origin: None,
    });
    let error = refused.err().unwrap();
    assert_eq!(error, LobbyError::TooManyRoomsForSession(2));
    assert_eq!(error.code(), "too_many_session_rooms");
    assert_eq!(lobby.room_count(), 2, "the refused room was not created");
    // Another session is not limited by ann's rooms.
    let mut bob = Client::new("bob");
    create(&lobby, &mut bob, 2, false).await;
    // Once one of ann's rooms closes, she may open another.
    first
        .leave(ann.session.id, ann.conn.id(), None)
        .await
        .unwrap();
    let mut ann_later = ann.reconnect();
    timeout(SAFETY, async {
        while !first.is_closed() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap();
    create(&lobby, &mut ann_later, 2, false).await;
    assert_eq!(lobby.room_count(), 3);
}

/// Creates a room for `host` from `origin` (each call a new session, as a
/// client that reconnects with no token would).
fn create_from(lobby: &Lobby, host: &Client, origin: &str) -> Result<RoomHandle, LobbyError> {
    lobby.create_room(CreateRoom {
        seats: 2,
        listed: false,
        host: host.session.clone(),
        conn: host.conn.clone(),
        request: None,
        origin: Some(OriginKey::new(origin)),
    })
}

#[tokio::test(start_paused = true)]
async fn one_origin_may_hold_only_so_many_waiting_rooms() {
    let lobby = lobby_with(
        LobbyConfig {
            max_waiting_rooms_per_origin: 2,
            ..LobbyConfig::default()
        },
        Arc::new(NoPersistence),
    );
    // Fresh sessions each time: the per-session limit does not apply.
    let first_host = Client::new("a1");
    let first = create_from(&lobby, &first_host, "198.51.100.7").unwrap();
    let second_host = Client::new("a2");
    create_from(&lobby, &second_host, "198.51.100.7").unwrap();
    let third_host = Client::new("a3");
    let error = create_from(&lobby, &third_host, "198.51.100.7").unwrap_err();
    assert_eq!(error, LobbyError::TooManyWaitingRoomsFromOrigin(2));
    assert_eq!(error.code(), "too_many_rooms_from_address");
    assert_eq!(lobby.room_count(), 2, "the refused room was not created");
    // Another origin, and a request of unknown origin, are not limited.
    create_from(&lobby, &Client::new("b"), "203.0.113.1").unwrap();
    lobby
        .create_room(CreateRoom {
            seats: 2,
            listed: false,
            host: third_host.session.clone(),
            conn: third_host.conn.clone(),
            request: None,
            origin: None,
        })
        .unwrap();
    // A started game no longer counts as waiting.
    let guest = Client::new("guest");
    guest.join(&first, Role::Player).await.unwrap();
    first
        .start(
            first_host.session.id,
            first_host.conn.id(),
            SeatOrder::Joined,
            None,
        )
        .await
        .unwrap();
    let fourth_host = Client::new("a4");
    create_from(&lobby, &fourth_host, "198.51.100.7").unwrap();
    let fifth_host = Client::new("a5");
    assert_eq!(
        create_from(&lobby, &fifth_host, "198.51.100.7").unwrap_err(),
        LobbyError::TooManyWaitingRoomsFromOrigin(2)
    );
}

#[tokio::test(start_paused = true)]
async fn abandoned_waiting_rooms_give_their_origin_its_slots_back_after_the_grace() {
    let lobby = lobby_with(
        LobbyConfig {
            max_waiting_rooms_per_origin: 1,
            empty_room_ttl: Duration::from_secs(60),
            ..LobbyConfig::default()
        },
        Arc::new(NoPersistence),
    );
    // The abuse: connect, create, disconnect, with a new session each time.
    let first = Client::new("x1");
    let room = create_from(&lobby, &first, "2001:db8:1:2::").unwrap();
    room.detach(first.session.id, first.conn.id()).await;
    let second = Client::new("x2");
    assert_eq!(
        create_from(&lobby, &second, "2001:db8:1:2::").unwrap_err(),
        LobbyError::TooManyWaitingRoomsFromOrigin(1)
    );
    let t0 = Instant::now();
    timeout(SAFETY, room.closed()).await.unwrap();
    assert!(t0.elapsed() < Duration::from_secs(61), "{:?}", t0.elapsed());
    create_from(&lobby, &second, "2001:db8:1:2::").unwrap();
}

#[tokio::test(start_paused = true)]
async fn the_lobby_counts_rooms_by_status_games_and_actions() {
    let lobby = lobby();
    let mut waiting_host = Client::new("wendy");
    create(&lobby, &mut waiting_host, 2, true).await;
    let (room, mut players) = started_game(&lobby, 2).await;
    let counts = lobby.room_counts();
    assert_eq!((counts.waiting, counts.playing, counts.finished), (1, 1, 0));
    let stats = lobby.stats();
    assert_eq!((stats.games_started, stats.games_finished), (1, 0));
    let (_, actions) = play_to_the_end(&room, &mut players).await;
    room.snapshot().await.unwrap();
    let stats = lobby.stats();
    assert_eq!(stats.games_finished, 1);
    assert_eq!(stats.actions_applied, actions);
    let counts = lobby.room_counts();
    assert_eq!((counts.waiting, counts.playing, counts.finished), (1, 0, 1));
    // A refused action is not counted.
    assert!(players[0].act(&room, Action::Pass, None).await.is_err());
    assert_eq!(lobby.stats().actions_applied, actions);
}

/// Holds every `action_applied` until released, to see `drain` wait for it.
struct Gate {
    entered: tokio::sync::Notify,
    release: tokio::sync::Semaphore,
}

impl Persistence for Gate {
    fn game_started<'a>(&'a self, _: GameStart<'a>) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }

    fn action_applied<'a>(
        &'a self,
        _: GameId,
        _: u64,
        _: Seat,
        _: Action,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async {
            self.entered.notify_one();
            let _permit = self.release.acquire().await.unwrap();
            Ok(())
        })
    }

    fn game_finished<'a>(
        &'a self,
        _: GameId,
        _: &'a GameResult,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }
    fn stored_log<'a>(
        &'a self,
        _: GameId,
    ) -> BoxFuture<'a, Result<Vec<(Seat, Action)>, PersistError>> {
        Box::pin(async { Err(PersistError::failed("no log in this test")) })
    }
}

#[tokio::test(start_paused = true)]
async fn drain_waits_for_an_action_being_stored() {
    let gate = Arc::new(Gate {
        entered: tokio::sync::Notify::new(),
        release: tokio::sync::Semaphore::new(0),
    });
    let lobby = lobby_with(LobbyConfig::default(), gate.clone());
    let (room, mut players) = started_game(&lobby, 2).await;
    let mut actor = None;
    for (i, p) in players.iter_mut().enumerate() {
        if let Some(legal) = p.state().await.legal_actions {
            actor = Some((i, legal));
        }
    }
    let (i, legal) = actor.expect("someone acts first");
    let action = Action::try_from(&legal[0]).unwrap();
    let acting = {
        let room = room.clone();
        let (session, conn) = (players[i].session.id, players[i].conn.id());
        tokio::spawn(async move { room.act(session, conn, action, Some(0), None).await })
    };
    gate.entered.notified().await;
    let drain = tokio::spawn({
        let lobby = lobby.clone();
        async move { lobby.drain().await }
    });
    // The drain cannot finish while the action is being stored.
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert!(!drain.is_finished());
    gate.release.add_permits(1);
    timeout(SAFETY, drain).await.unwrap().unwrap();
    assert_eq!(acting.await.unwrap(), Ok(()));
    assert_eq!(room.snapshot().await.unwrap().version, Some(1));
}
