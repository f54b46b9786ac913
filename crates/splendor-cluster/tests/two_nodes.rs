//! Two nodes in one process over one database and a `nats-server` of the
//! test's own (issue 21, forwarding): a client whose socket node 2 holds
//! joins, watches and plays a room node 1 owns; what the room sends it is
//! redacted for its seat on node 1 and crosses NATS in order; a room that
//! closes tells the other node; a node that cannot be reached is
//! `room_unavailable`.

mod support;

use splendor_lobby::{NodeId, Request, RoomDirectory, RoomError, RoomHandle};
use splendor_protocol::{Role, SeatOrder, ServerMessage, StateInfo, WireAction};
use splendor_rules::Action;
use support::{Client, Db, Nats, Node, SAFETY};
use tokio::time::timeout;

/// Picks a legal action: a purchase when there is one (so games end),
/// otherwise one from the list by a simple counter.
fn pick(legal: &[WireAction], turn: u64) -> Action {
    let chosen = legal
        .iter()
        .find(|a| matches!(a, WireAction::Buy(_)))
        .unwrap_or(&legal[(turn as usize * 7) % legal.len()]);
    Action::try_from(chosen).unwrap()
}

/// Nothing of another seat's blind reserve is in `state` (R6.4).
fn assert_redacted(state: &StateInfo) {
    for player in &state.players {
        if Some(player.seat) == state.you {
            continue;
        }
        for reserved in &player.reserved {
            if reserved.from_deck {
                assert!(
                    reserved.card.is_none(),
                    "seat {:?} sees a blind reserve",
                    state.you
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_and_a_spectator_on_another_node_play_a_whole_game_through_the_owner() {
    let nats = Nats::start().await;
    let db = Db::sqlite();
    let a = Node::start(&db, &nats.url, 1).await;
    let b = Node::start(&db, &nats.url, 2).await;

    let mut ann = Client::on(&a, "ann");
    let local = ann.create(&a, 2).await;
    let code = local.code().to_string();

    // Node 2 finds the room on node 1 and reaches it there.
    let mut bob = Client::on(&b, "bob");
    let remote = b.lobby.find_anywhere(&code).await.unwrap();
    assert_eq!(remote.remote_lease().map(|l| l.node), Some(NodeId(1)));
    bob.join(&remote, Role::Player).await.unwrap();
    let room = bob.room().await;
    assert_eq!(room.code, code);
    let mut carl = Client::on(&b, "carl");
    carl.join(&remote, Role::Spectator).await.unwrap();
    carl.room().await;

    ann.call(
        &local,
        Request::Start {
            order: SeatOrder::Joined,
        },
    )
    .await
    .unwrap();
    let handles: [&RoomHandle; 2] = [&local, &remote];
    let mut players = [ann, bob];
    let mut version = 0;
    let result = loop {
        let mut actor = None;
        for (i, p) in players.iter_mut().enumerate() {
            let state = p.state().await;
            assert_eq!(
                state.version, version,
                "{}: every version, in order",
                p.session.name
            );
            assert_redacted(&state);
            if let Some(legal) = state.legal_actions {
                actor = Some((i, legal));
            }
        }
        let watched = carl.state().await;
        assert_eq!(watched.version, version);
        assert_eq!(watched.you, None);
        assert_redacted(&watched);
        let Some((i, legal)) = actor else {
            break players[1]
                .recv_until("result", |m| matches!(m, ServerMessage::Result(_)))
                .await;
        };
        let request = Request::Act {
            action: pick(&legal, version),
            expect_version: Some(version),
        };
        players[i].call(handles[i], request).await.unwrap();
        version += 1;
    };
    assert!(matches!(result, ServerMessage::Result(_)));
    assert!(version > 20, "a whole game: {version} actions");

    // Every move went into node 1's log, in order, and nowhere else.
    let games = a.store.games_to_restore(0).await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].actions.len() as u64, version);
    drop(nats);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_chat_and_leaving_cross_nodes() {
    let nats = Nats::start().await;
    let db = Db::sqlite();
    let a = Node::start(&db, &nats.url, 1).await;
    let b = Node::start(&db, &nats.url, 2).await;
    let mut ann = Client::on(&a, "ann");
    let local = ann.create(&a, 3).await;
    let mut bob = Client::on(&b, "bob");
    let remote = b
        .lobby
        .find_anywhere(&local.code().to_string())
        .await
        .unwrap();
    bob.join(&remote, Role::Player).await.unwrap();
    bob.room().await;

    // A refusal comes back as the room said it, words and all.
    assert_eq!(
        bob.call(
            &remote,
            Request::Start {
                order: SeatOrder::Joined
            }
        )
        .await,
        Err(RoomError::NotHost)
    );
    let before = Request::Act {
        action: Action::Pass,
        expect_version: None,
    };
    assert_eq!(
        bob.call(&remote, before).await,
        Err(RoomError::GameNotStarted)
    );

    bob.call(
        &remote,
        Request::Chat {
            text: "hi from node 2".into(),
        },
    )
    .await
    .unwrap();
    match ann
        .recv_until("chat", |m| matches!(m, ServerMessage::Chat(_)))
        .await
    {
        ServerMessage::Chat(chat) => assert_eq!(chat.text, "hi from node 2"),
        _ => unreachable!(),
    }
    bob.call(&remote, Request::Leave).await.unwrap();
    bob.recv_until("left", |m| matches!(m, ServerMessage::Left(_)))
        .await;
    let room = ann.room().await;
    assert_eq!(
        room.seats.iter().filter(|p| p.is_some()).count(),
        1,
        "{room:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_that_closes_tells_the_other_node_in_its_language_and_its_handles() {
    let nats = Nats::start().await;
    let db = Db::sqlite();
    let a = Node::start(&db, &nats.url, 1).await;
    let b = Node::start(&db, &nats.url, 2).await;
    let mut ann = Client::on(&a, "ann");
    let local = ann.create(&a, 2).await;
    let mut bob = Client::on(&b, "bob");
    let remote = b
        .lobby
        .find_anywhere(&local.code().to_string())
        .await
        .unwrap();
    bob.join(&remote, Role::Player).await.unwrap();
    bob.room().await;
    assert!(!remote.is_closed());

    // Another node takes the room over: node 1 finds out at its renewal.
    let lease = a
        .store
        .room_lease(&local.code().to_string())
        .await
        .unwrap()
        .unwrap();
    a.store.release_room(&lease).await.unwrap();
    let directory =
        splendor_lobby::StoreDirectory::new(b.store.clone(), std::time::Duration::from_secs(30));
    directory.claim(local.code(), NodeId(3)).await.unwrap();
    assert_eq!(a.lobby.renew_leases().await, 1);

    match bob
        .recv_until("room_closed", |m| matches!(m, ServerMessage::RoomClosed(_)))
        .await
    {
        // Words in a client in this process are their id (the writer of a
        // real socket words them in its language).
        ServerMessage::RoomClosed(closed) => assert_eq!(closed.reason, "closed-moved"),
        _ => unreachable!(),
    }
    timeout(SAFETY, remote.closed())
        .await
        .expect("the handle knows");
    assert!(remote.is_closed());
    assert_eq!(
        bob.call(&remote, Request::Sync).await,
        Err(RoomError::RoomClosed)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_cannot_reach_the_owner_is_room_unavailable() {
    let mut nats = Nats::start().await;
    let db = Db::sqlite();
    let a = Node::start(&db, &nats.url, 1).await;
    let b = Node::start(&db, &nats.url, 2).await;
    let mut ann = Client::on(&a, "ann");
    let local = ann.create(&a, 2).await;
    let mut bob = Client::on(&b, "bob");
    let remote = b
        .lobby
        .find_anywhere(&local.code().to_string())
        .await
        .unwrap();
    bob.join(&remote, Role::Player).await.unwrap();
    bob.room().await;

    nats.kill().await;
    assert_eq!(
        bob.call(&remote, Request::Sync).await,
        Err(RoomError::RoomUnavailable)
    );
    // The room itself is unharmed on its node.
    assert!(!local.is_closed());
}
