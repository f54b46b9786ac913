//! What the cluster tests share (besides `splendor_cluster::testing::Nats`,
//! a `nats-server` of their own on a free loopback port): nodes (a lobby, its store handle, its directory and its
//! cluster) over one database, and a client that is a bare connection
//! queue on a node.

#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;
use std::time::Duration;

pub use splendor_cluster::testing::Nats;
use splendor_cluster::{Cluster, ClusterConfig};
use splendor_lobby::JoinAs;
use splendor_lobby::stored::StorePersistence;
use splendor_lobby::{
    Caller, Connection, ConnectionRx, CreateRoom, Lobby, LobbyConfig, NodeId, Request, RoomError,
    RoomHandle, Session, StoreDirectory,
};
use splendor_protocol::{RequestId, Role, RoomInfo, ServerMessage, StateInfo};
use splendor_store::Store;
use tokio::time::timeout;

/// Generous: only a missing message ever reaches it.
pub const SAFETY: Duration = Duration::from_secs(20);

/// One database for every node of a test: an SQLite file.
pub struct Db {
    pub url: String,
    _dir: tempfile::TempDir,
}

impl Db {
    pub fn sqlite() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/data/splendor.db", dir.path().display());
        Db { url, _dir: dir }
    }
}

/// A node: its lobby over the shared database, in the cluster.
pub struct Node {
    pub id: NodeId,
    pub lobby: Lobby,
    pub store: Store,
    pub cluster: Cluster,
}

impl Node {
    pub async fn start(db: &Db, nats: &str, id: u16) -> Node {
        let store = Store::open(&db.url).await.unwrap();
        let directory = Arc::new(StoreDirectory::new(store.clone(), Duration::from_secs(30)));
        let lobby = Lobby::with_directory(
            LobbyConfig {
                node: NodeId(id),
                ..LobbyConfig::default()
            },
            Arc::new(StorePersistence::new(store.clone())),
            directory,
        );
        let config = ClusterConfig {
            call_timeout: Duration::from_secs(2),
            ..ClusterConfig::default()
        };
        let cluster = Cluster::start(nats, lobby.clone(), config).await.unwrap();
        Node {
            id: NodeId(id),
            lobby,
            store,
            cluster,
        }
    }
}

/// A client whose socket a node holds.
pub struct Client {
    pub session: Session,
    pub conn: Connection,
    pub rx: ConnectionRx,
}

impl Client {
    pub fn on(node: &Node, name: &str) -> Client {
        let (conn, rx) = Connection::on_node(node.id, 256);
        Client {
            session: Session {
                id: splendor_lobby::session::random_session_id().unwrap(),
                name: name.into(),
                program: false,
            },
            conn,
            rx,
        }
    }

    pub fn caller(&self) -> Caller {
        Caller {
            session: self.session.id,
            conn: self.conn.id(),
            request: None,
        }
    }

    pub async fn recv_until(
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

    pub async fn room(&mut self) -> RoomInfo {
        match self
            .recv_until("room", |m| matches!(m, ServerMessage::Room(_)))
            .await
        {
            ServerMessage::Room(r) => r,
            _ => unreachable!(),
        }
    }

    pub async fn state(&mut self) -> StateInfo {
        match self
            .recv_until("state", |m| matches!(m, ServerMessage::State(_)))
            .await
        {
            ServerMessage::State(s) => s,
            _ => unreachable!(),
        }
    }

    pub async fn create(&mut self, node: &Node, seats: u8) -> RoomHandle {
        let handle = node
            .lobby
            .create_room(CreateRoom {
                seats,
                listed: false,
                host: self.session.clone(),
                role: Role::Player,
                clock: None,
                conn: self.conn.clone(),
                request: Some(RequestId::String("create".into())),
                verbose: true,
                client: None,
                rated: false,
                tutorial: false,
            })
            .await
            .unwrap();
        self.room().await;
        handle
    }

    pub async fn join(&self, room: &RoomHandle, role: Role) -> Result<(), RoomError> {
        room.join(
            self.caller(),
            JoinAs {
                name: self.session.name.clone(),
                program: false,
                role,
                verbose: true,
                claim: None,
            },
            self.conn.clone(),
        )
        .await
        .map(drop)
    }

    pub async fn call(&self, room: &RoomHandle, request: Request) -> Result<(), RoomError> {
        room.call(self.caller(), request).await.map(drop)
    }
}
