//! The lobby's limits and figures for hosting: rooms per session and per
//! address, listings, counters.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Client, SAFETY, create, lobby, lobby_with, play_to_the_end, started_game};
use splendor_lobby::{
    ClientKey, CreateRoom, Lobby, LobbyConfig, NoPersistence, Request, RoomError, RoomHandle,
};
use splendor_protocol::Role;
use splendor_rules::Action;
use tokio::time::{Instant, timeout};

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

// ---- games (these drive the rules crate) ---------------------------------

// ---- limits and figures for hosting -------------------------------------

/// R12.5: turn-based rooms count apart from live ones, so a player with a
/// live room or two may keep many turn-based games going, up to their own
/// limit.
#[tokio::test(start_paused = true)]
async fn turn_based_rooms_count_apart_from_live_ones() {
    let lobby = lobby_with(
        LobbyConfig {
            max_rooms_per_session: 1,
            max_turn_based_rooms_per_session: 2,
            ..LobbyConfig::default()
        },
        Arc::new(NoPersistence),
    );
    let ann = Client::new("ann");
    let day = splendor_lobby::room::clock::ClockOptions {
        clock: splendor_lobby::TurnClock::per_move(
            Duration::from_secs(86_400),
            splendor_lobby::OnDeadline::StandIn,
        )
        .unwrap(),
        stand_in_when_away: false,
    };
    let make = |clock| {
        let client = ann.reconnect();
        let lobby = lobby.clone();
        async move {
            lobby
                .create_room(CreateRoom {
                    seats: 2,
                    listed: false,
                    host: client.session.clone(),
                    role: splendor_protocol::Role::Player,
                    clock,
                    conn: client.conn.clone(),
                    request: None,
                    verbose: false,
                    client: None,
                    rated: false,
                    tutorial: false,
                })
                .await
                .map(|_| ())
        }
    };
    assert_eq!(make(None).await, Ok(()));
    assert_eq!(make(None).await, Err(RoomError::TooManyRoomsForSession(1)));
    assert_eq!(make(Some(day)).await, Ok(()));
    assert_eq!(make(Some(day)).await, Ok(()));
    assert_eq!(
        make(Some(day)).await,
        Err(RoomError::TooManyRoomsForSession(2))
    );
    assert_eq!(make(None).await, Err(RoomError::TooManyRoomsForSession(1)));
    assert_eq!(lobby.room_count(), 3, "the refused rooms were not created");
}

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
    let refused = lobby
        .create_room(CreateRoom {
            seats: 2,
            listed: false,
            host: third.session.clone(),
            role: splendor_protocol::Role::Player,
            clock: None,
            conn: third.conn.clone(),
            request: None,
            verbose: false,
            client: None,
            rated: false,
            tutorial: false,
        })
        .await;
    let error = refused.err().unwrap();
    assert_eq!(error, RoomError::TooManyRoomsForSession(2));
    assert_eq!(error.code(), "too_many_session_rooms");
    assert_eq!(lobby.room_count(), 2, "the refused room was not created");
    // Another session is not limited by ann's rooms.
    let mut bob = Client::new("bob");
    create(&lobby, &mut bob, 2, false).await;
    // Once one of ann's rooms closes, she may open another.
    ann.call(&first, Request::Leave).await.unwrap();
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
async fn create_from(lobby: &Lobby, host: &Client, origin: &str) -> Result<RoomHandle, RoomError> {
    lobby
        .create_room(CreateRoom {
            seats: 2,
            listed: false,
            host: host.session.clone(),
            role: splendor_protocol::Role::Player,
            clock: None,
            conn: host.conn.clone(),
            request: None,
            verbose: false,
            client: Some(ClientKey::new(origin)),
            rated: false,
            tutorial: false,
        })
        .await
}

#[tokio::test(start_paused = true)]
async fn one_address_may_hold_only_so_many_waiting_rooms() {
    let lobby = lobby_with(
        LobbyConfig {
            max_waiting_rooms_per_ip: 2,
            ..LobbyConfig::default()
        },
        Arc::new(NoPersistence),
    );
    // Fresh sessions each time: the per-session limit does not apply.
    let first_host = Client::new("a1");
    let first = create_from(&lobby, &first_host, "198.51.100.7")
        .await
        .unwrap();
    let second_host = Client::new("a2");
    create_from(&lobby, &second_host, "198.51.100.7")
        .await
        .unwrap();
    let third_host = Client::new("a3");
    let error = create_from(&lobby, &third_host, "198.51.100.7")
        .await
        .unwrap_err();
    assert_eq!(error, RoomError::TooManyWaitingRoomsFromOrigin(2));
    assert_eq!(error.code(), "too_many_rooms_from_address");
    assert_eq!(lobby.room_count(), 2, "the refused room was not created");
    // Another origin, and a request of unknown origin, are not limited.
    create_from(&lobby, &Client::new("b"), "203.0.113.1")
        .await
        .unwrap();
    lobby
        .create_room(CreateRoom {
            seats: 2,
            listed: false,
            host: third_host.session.clone(),
            role: splendor_protocol::Role::Player,
            clock: None,
            conn: third_host.conn.clone(),
            request: None,
            verbose: false,
            client: None,
            rated: false,
            tutorial: false,
        })
        .await
        .unwrap();
    // A started game no longer counts as waiting.
    let guest = Client::new("guest");
    guest.join(&first, Role::Player).await.unwrap();
    first_host.start(&first).await.unwrap();
    let fourth_host = Client::new("a4");
    create_from(&lobby, &fourth_host, "198.51.100.7")
        .await
        .unwrap();
    let fifth_host = Client::new("a5");
    assert_eq!(
        create_from(&lobby, &fifth_host, "198.51.100.7")
            .await
            .unwrap_err(),
        RoomError::TooManyWaitingRoomsFromOrigin(2)
    );
}

#[tokio::test(start_paused = true)]
async fn abandoned_waiting_rooms_give_their_address_its_slots_back_after_the_grace() {
    let lobby = lobby_with(
        LobbyConfig {
            max_waiting_rooms_per_ip: 1,
            empty_room_ttl: Duration::from_secs(60),
            ..LobbyConfig::default()
        },
        Arc::new(NoPersistence),
    );
    // The abuse: connect, create, disconnect, with a new session each time.
    let first = Client::new("x1");
    let room = create_from(&lobby, &first, "2001:db8:1:2::").await.unwrap();
    room.detach(first.caller(None)).await;
    let second = Client::new("x2");
    assert_eq!(
        create_from(&lobby, &second, "2001:db8:1:2::")
            .await
            .unwrap_err(),
        RoomError::TooManyWaitingRoomsFromOrigin(1)
    );
    let t0 = Instant::now();
    timeout(SAFETY, room.closed()).await.unwrap();
    assert!(t0.elapsed() < Duration::from_secs(61), "{:?}", t0.elapsed());
    create_from(&lobby, &second, "2001:db8:1:2::")
        .await
        .unwrap();
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
    room.probe().await.unwrap();
    let stats = lobby.stats();
    assert_eq!(stats.games_finished, 1);
    assert_eq!(stats.actions_applied, actions);
    let counts = lobby.room_counts();
    assert_eq!((counts.waiting, counts.playing, counts.finished), (1, 0, 1));
    // A refused action is not counted.
    assert!(players[0].act(&room, Action::Pass, None).await.is_err());
    assert_eq!(lobby.stats().actions_applied, actions);
}
