//! The room directory, the seam a second node plugs into (issue 19), with
//! two lobbies in one process standing for two nodes over one directory:
//! a room's code is claimed before the room exists and given back when it
//! closes; the other node finds it elsewhere, and cannot take its code.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Client, create};
use splendor_lobby::{
    Lobby, LobbyConfig, LocalDirectory, Location, NoPersistence, NodeId, RoomDirectory,
};
use tokio::time::timeout;

fn node(directory: &Arc<LocalDirectory>, id: u16) -> Lobby {
    Lobby::with_directory(
        LobbyConfig {
            node: NodeId(id),
            empty_room_ttl: Duration::from_secs(5),
            ..LobbyConfig::default()
        },
        Arc::new(NoPersistence),
        directory.clone(),
    )
}

#[tokio::test(start_paused = true)]
async fn a_room_is_found_where_it_runs_and_its_code_is_given_back_when_it_closes() {
    let directory = Arc::new(LocalDirectory::default());
    let (a, b) = (node(&directory, 1), node(&directory, 2));
    let mut ann = Client::new("ann");
    let (room, info) = create(&a, &mut ann, 2, false).await;
    let code = room.code();
    assert_eq!(info.code, code.to_string());

    let lease = directory.lookup(code).await.expect("the code is claimed");
    assert_eq!(lease.node, NodeId(1));
    assert!(matches!(a.locate(code).await, Location::Here(_)));
    match b.locate(code).await {
        Location::Elsewhere(found) => assert_eq!(found, lease),
        other => panic!("node 2 should find the room on node 1: {other:?}"),
    }
    assert!(
        b.find(&code.to_string()).is_err(),
        "node 2 runs no such room"
    );

    // The room closes (its host left before the start): the code is free.
    ann.call(&room, splendor_lobby::Request::Leave)
        .await
        .unwrap();
    timeout(Duration::from_secs(60), room.closed())
        .await
        .expect("the empty room closes");
    // The room's task gives the code back right after it closes its
    // channel: let it run (bounded; no time passes).
    for _ in 0..10 {
        if directory.lookup(code).await.is_none() {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(directory.lookup(code).await, None);
    assert!(matches!(b.locate(code).await, Location::Nowhere));
    assert!(directory.list().await.is_empty());
}
