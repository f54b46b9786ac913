//! What the lobby's integration tests share: a client that is a bare
//! connection queue, lobbies, rooms and whole games.

#![allow(dead_code, unreachable_pub)]

use std::sync::Arc;
use std::time::Duration;

use splendor_lobby::JoinAs;
use splendor_lobby::{
    Caller, Connection, ConnectionRx, CreateRoom, Lobby, LobbyConfig, NoPersistence, Persistence,
    Request, RoomError, RoomHandle, Session,
};
use splendor_protocol::{
    RequestId, ResultInfo, Role, RoomInfo, SeatOrder, ServerMessage, StateInfo, WireAction,
};
use splendor_rules::Action;
use tokio::time::timeout;

/// Generous virtual time: only a missing message ever reaches it.
pub const SAFETY: Duration = Duration::from_secs(24 * 60 * 60);

pub struct Client {
    pub session: Session,
    pub conn: Connection,
    pub rx: ConnectionRx,
}

impl Client {
    pub fn new(name: &str) -> Client {
        Client::with_queue(name, 64)
    }

    pub fn with_queue(name: &str, queue: usize) -> Client {
        let (conn, rx) = Connection::new(queue);
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

    /// The same session on a new connection.
    pub fn reconnect(&self) -> Client {
        let (conn, rx) = Connection::new(64);
        Client {
            session: self.session.clone(),
            conn,
            rx,
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
                    None => panic!("{name}: connection queue closed while waiting for {what}"),
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

    pub async fn room_where(&mut self, pred: impl Fn(&RoomInfo) -> bool) -> RoomInfo {
        match self
            .recv_until("room", |m| matches!(m, ServerMessage::Room(r) if pred(r)))
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

    pub fn caller(&self, request: Option<RequestId>) -> Caller {
        Caller {
            session: self.session.id,
            conn: self.conn.id(),
            request,
        }
    }

    pub async fn join(
        &self,
        room: &RoomHandle,
        role: Role,
    ) -> Result<splendor_lobby::Joined, RoomError> {
        let name = self.session.name.clone();
        room.join(
            self.caller(None),
            JoinAs {
                name,
                program: false,
                role,
                verbose: false,
                claim: None,
            },
            self.conn.clone(),
        )
        .await
    }

    pub async fn call(&self, room: &RoomHandle, request: Request) -> Result<(), RoomError> {
        room.call(self.caller(None), request).await.map(drop)
    }

    pub async fn act(
        &self,
        room: &RoomHandle,
        action: Action,
        expect: Option<u64>,
    ) -> Result<(), RoomError> {
        let request = Request::Act {
            action,
            expect_version: expect,
        };
        self.call(room, request).await
    }

    pub async fn start(&self, room: &RoomHandle) -> Result<(), RoomError> {
        let request = Request::Start {
            order: SeatOrder::Joined,
        };
        self.call(room, request).await
    }
}

pub fn lobby_with(config: LobbyConfig, persistence: Arc<dyn Persistence>) -> Lobby {
    Lobby::new(config, persistence)
}

pub fn lobby() -> Lobby {
    lobby_with(LobbyConfig::default(), Arc::new(NoPersistence))
}

pub async fn create(
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
            role: splendor_protocol::Role::Player,
            clock: None,
            conn: host.conn.clone(),
            request: Some(RequestId::String("create-1".into())),
            verbose: false,
            client: None,
            rated: false,
            tutorial: false,
        })
        .await
        .unwrap();
    let room = host.room().await;
    assert_eq!(room.id, Some(RequestId::String("create-1".into())));
    (handle, room)
}

/// Picks an action from a legal list: a purchase when there is one (so games
/// end), otherwise a pseudo-random legal action.
pub fn pick(legal: &[WireAction], salt: &mut u64) -> Action {
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
pub async fn play_to_the_end(room: &RoomHandle, players: &mut [Client]) -> (ResultInfo, u64) {
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

pub async fn started_game(lobby: &Lobby, n: usize) -> (RoomHandle, Vec<Client>) {
    let mut players: Vec<Client> = ["ann", "bob", "carl", "dora"][..n]
        .iter()
        .map(|name| Client::new(name))
        .collect();
    let (room, _) = create(lobby, &mut players[0], n as u8, false).await;
    for p in &players[1..] {
        p.join(&room, Role::Player).await.unwrap();
    }
    let host = &players[0];
    host.start(&room).await.unwrap();
    (room, players)
}
