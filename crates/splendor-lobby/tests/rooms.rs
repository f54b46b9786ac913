//! Rooms through the lobby's public API and the room task (the driver),
//! without sockets: what the core's own tests (src/room/tests) cannot see:
//! real connection queues, the lobby's map and presence, awaited writes.
//!
//! Every test runs on tokio's paused clock: timers fire exactly when due and
//! at once, so expiry is tested without real waiting. Tests wait for specific
//! messages, never for time to pass.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use common::{Client, SAFETY, create, lobby, lobby_with, play_to_the_end, started_game};
use splendor_lobby::session::BoxFuture;
use splendor_lobby::{
    CloseReason, LobbyConfig, NoPersistence, PersistError, Persistence, Request, RoomError,
    RoomSeat, Stored, Write,
};
use splendor_protocol::{RequestId, Role, RoomStatus, ServerMessage};
use splendor_rules::Action;
use tokio::time::{Instant, timeout};

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
    assert_eq!(unknown, RoomError::RoomNotFound(unknown_code.into()));
}

#[tokio::test(start_paused = true)]
async fn the_host_role_passes_on_and_the_last_player_leaving_closes_the_room() {
    let lobby = lobby();
    let mut ann = Client::new("ann");
    let mut bob = Client::new("bob");
    let (room, info) = create(&lobby, &mut ann, 2, false).await;
    bob.join(&room, Role::Player).await.unwrap();
    room.call(
        ann.caller(Some(RequestId::Number(5.into()))),
        Request::Leave,
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
        ann.call(&room, Request::Leave).await,
        Err(RoomError::NotInRoom)
    );
    bob.call(&room, Request::Leave).await.unwrap();
    assert_eq!(room.probe().await, Err(RoomError::RoomClosed));
    assert_eq!(
        lobby.find(&info.code).unwrap_err(),
        RoomError::RoomNotFound(info.code.clone())
    );
    assert_eq!(lobby.room_count(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_slow_connection_is_dropped_and_the_room_goes_on() {
    let lobby = lobby();
    // Ann's queue holds one message and she never reads it.
    let mut ann = Client::with_queue("ann", 1);
    let mut bob = Client::new("bob");
    let (room, _) = create(&lobby, &mut ann, 2, false).await;
    // `create` read the first room message; fill the queue again.
    ann.call(&room, Request::Sync).await.unwrap();
    bob.join(&room, Role::Player).await.unwrap();
    assert_eq!(ann.rx.closed().await, CloseReason::TooSlow);
    let seen = bob
        .room_where(|r| r.seats[0].as_ref().is_some_and(|s| !s.connected))
        .await;
    assert_eq!(seen.seats[0].as_ref().unwrap().name, "ann");
    let snapshot = room.probe().await.unwrap();
    assert_eq!((snapshot.seated, snapshot.connected_players), (2, 1));
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
    let snapshot = room.probe().await.unwrap();
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
        Err(RoomError::GameOver)
    );
}

/// Stores everything but the first `game_finished`, and counts those calls.
struct FinishFailsOnce {
    finish_calls: AtomicU32,
    finished: AtomicU32,
}

impl Persistence for FinishFailsOnce {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<Stored, PersistError>> {
        let finish = matches!(write, Write::GameFinished { .. });
        let call = if finish {
            self.finish_calls.fetch_add(1, Ordering::SeqCst)
        } else {
            u32::MAX
        };
        Box::pin(async move {
            match write {
                Write::LoadLog { .. } => Err(PersistError::failed("no log in this test")),
                Write::GameFinished { .. } if call == 0 => {
                    Err(PersistError::unavailable("database unreachable"))
                }
                Write::GameFinished { .. } => {
                    self.finished.fetch_add(1, Ordering::SeqCst);
                    Ok(Stored::Done)
                }
                _ => Ok(Stored::Done),
            }
        })
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

/// Holds every `action_applied` until released, to see `drain` wait for it.
struct Gate {
    entered: tokio::sync::Notify,
    release: tokio::sync::Semaphore,
}

impl Persistence for Gate {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<Stored, PersistError>> {
        Box::pin(async move {
            match write {
                Write::LoadLog { .. } => Err(PersistError::failed("no log in this test")),
                Write::ActionApplied { .. } => {
                    self.entered.notify_one();
                    let _permit = self.release.acquire().await.unwrap();
                    Ok(Stored::Done)
                }
                _ => Ok(Stored::Done),
            }
        })
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
        let caller = players[i].caller(None);
        let request = Request::Act {
            action,
            expect_version: Some(0),
        };
        tokio::spawn(async move { room.call(caller, request).await.map(drop) })
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
    assert_eq!(room.probe().await.unwrap().version, Some(1));
}

/// A request that arrives while a write is in flight waits in the room's
/// queue and is decided on the state the write left: here a `sync` sent
/// during the commit of the first action answers with version 1.
#[tokio::test(start_paused = true)]
async fn a_request_during_a_write_waits_for_the_write_and_sees_its_outcome() {
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
    let other = 1 - i;
    let action = Action::try_from(&legal[0]).unwrap();
    let acting = {
        let (room, caller) = (room.clone(), players[i].caller(None));
        let request = Request::Act {
            action,
            expect_version: Some(0),
        };
        tokio::spawn(async move { room.call(caller, request).await.map(drop) })
    };
    gate.entered.notified().await;
    let syncing = {
        let (room, caller) = (room.clone(), players[other].caller(None));
        tokio::spawn(async move { room.call(caller, Request::Sync).await.map(drop) })
    };
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert!(!syncing.is_finished(), "the sync waits for the write");
    gate.release.add_permits(1);
    assert_eq!(acting.await.unwrap(), Ok(()));
    assert_eq!(syncing.await.unwrap(), Ok(()));
    // The other player gets the action's state, then the sync's: both v1.
    assert_eq!(players[other].state().await.version, 1);
    assert_eq!(players[other].state().await.version, 1);
}

/// A room that closes by itself leaves the lobby's map and its sessions'
/// presence: the lobby reaps it when its task returns.
#[tokio::test(start_paused = true)]
async fn an_expired_room_is_forgotten_by_the_lobby_and_by_presence() {
    let config = LobbyConfig {
        empty_room_ttl: Duration::from_secs(60),
        ..LobbyConfig::default()
    };
    let lobby = lobby_with(config, Arc::new(NoPersistence));
    let mut ann = Client::new("ann");
    let (room, info) = create(&lobby, &mut ann, 2, false).await;
    let seat = RoomSeat {
        code: room.code(),
        role: Role::Player,
    };
    lobby.presence().set_room(ann.session.id, Some(seat));
    room.detach(ann.caller(None)).await;
    timeout(SAFETY, room.closed()).await.unwrap();
    timeout(SAFETY, async {
        while lobby.room_count() > 0 {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap();
    assert_eq!(
        lobby.find(&info.code).unwrap_err(),
        RoomError::RoomNotFound(info.code.clone())
    );
    // The session is in no room any more: a new connection rejoins nothing.
    let (conn, _rx) = splendor_lobby::Connection::new(1);
    assert_eq!(lobby.presence().claim(ann.session.id, 1, &conn), None);
}
