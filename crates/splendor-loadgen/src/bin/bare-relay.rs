//! The bare relay: the ceiling the server is measured against (issue 20).
//!
//! A tokio-tungstenite server that speaks just enough of the protocol for
//! `splendor-loadgen` (create, join, start, act, leave) and does nothing
//! else: no rules, no store, no redaction, no limits. Each `act` is
//! answered by relaying to every seat of the room an `events` frame and a
//! `state` frame the size of the real server's mid-game frames, with one
//! canned legal action for the next seat; after 60 actions a `result`
//! ends the game. What this process spends per action is what sockets,
//! WebSocket framing and one JSON parse per message cost on this machine.
//!
//! ```sh
//! cargo build --release -p splendor-loadgen
//! ./target/release/bare-relay 127.0.0.1:18090 &
//! ./target/release/splendor-loadgen --url ws://127.0.0.1:18090/ws --pid $! --rooms 250 --seats 4
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Actions in one game.
const GAME_LENGTH: u64 = 60;

/// A seat's outgoing queue.
type Outbox = mpsc::Sender<String>;

#[derive(Default)]
struct Room {
    seats: Vec<Outbox>,
    version: u64,
}

/// Each room behind a lock of its own; the map is locked only to create,
/// join and leave.
type Rooms = Arc<Mutex<HashMap<String, Arc<Mutex<Room>>>>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[tokio::main(flavor = "multi_thread")]
async fn main() -> anyhow::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18090".to_owned());
    let listener = TcpListener::bind(&addr).await?;
    println!("bare-relay listening on {}", listener.local_addr()?);
    let rooms = Rooms::default();
    loop {
        let (socket, _) = listener.accept().await?;
        socket.set_nodelay(true)?;
        tokio::spawn(serve(socket, rooms.clone()));
    }
}

/// Frames of about the real server's mid-game sizes (events about 400
/// bytes, states about 1,150).
fn events_frame(code: &str, version: u64) -> String {
    format!(
        r#"{{"type":"events","room":"{code}","version":{version},"events":[{{"kind":"bought","seat":1,"card":{{"id":17,"level":1,"points":0,"bonus":"blue","cost":{{"white":1,"red":1,"black":1,"green":1}}}},"paid":{{"white":1,"red":1,"black":1,"green":1}}}},{{"kind":"dealt","level":1,"slot":2,"card":{{"id":33,"level":1,"points":1,"bonus":"green","cost":{{"blue":4}}}}}}]}}"#
    )
}

/// Four seats' holdings, written once.
fn players() -> &'static str {
    static PLAYERS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PLAYERS.get_or_init(|| {
        let player = |seat: usize| {
            format!(
                r#"{{"seat":{seat},"points":3,"tokens":{{"white":1,"blue":2,"green":0,"red":1,"black":0,"gold":1}},"bonuses":{{"white":1,"blue":1,"green":2,"red":0,"black":1}},"cards":[3,17,41,52,66],"nobles":[],"reserved":[{{"level":2,"from_deck":false,"card":48}}]}}"#
            )
        };
        (0..4).map(player).collect::<Vec<_>>().join(",")
    })
}

fn state_frame(code: &str, version: u64, you: usize, to_act: usize) -> String {
    let legal = if you == to_act {
        r#","legal_actions":[{"buy":17},{"take":["white","blue","red"]},{"reserve":33}]"#
    } else {
        ""
    };
    format!(
        r#"{{"type":"state","lean":true,"room":"{code}","version":{version},"you":{you},"phase":"main","to_act":{to_act},"turn":{turn},"supply":{{"white":4,"blue":3,"green":4,"red":2,"black":4,"gold":4}},"levels":[{{"level":1,"deck":30,"cards":[1,2,3,4]}},{{"level":2,"deck":26,"cards":[41,42,43,44]}},{{"level":3,"deck":16,"cards":[71,72,73,74]}}],"nobles":[1,4,7,9,10],"players":[{players}],"end_triggered":false{legal}}}"#,
        turn = version / 4,
        players = players(),
    )
}

async fn serve(socket: TcpStream, rooms: Rooms) {
    let config = WebSocketConfig::default();
    let Ok(ws) = tokio_tungstenite::accept_async_with_config(socket, Some(config)).await else {
        return;
    };
    let (mut sink, mut stream) = ws.split();
    let (outbox, mut queue) = mpsc::channel::<String>(64);
    tokio::spawn(async move {
        // Whatever is queued goes out in one write, as the server does.
        let mut batch = Vec::with_capacity(16);
        while queue.recv_many(&mut batch, 16).await > 0 {
            for text in batch.drain(..) {
                if sink.feed(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
    });
    let mut room: Option<(String, Arc<Mutex<Room>>)> = None;
    while let Some(Ok(frame)) = stream.next().await {
        let Message::Text(text) = frame else { continue };
        let Ok(message) = serde_json::from_str::<Value>(text.as_str()) else {
            continue;
        };
        let reply =
            |id: &Value, code: &str| json!({"type": "room", "id": id, "code": code}).to_string();
        match message["type"].as_str() {
            Some("create") => {
                static NEXT_ROOM: AtomicU64 = AtomicU64::new(0);
                let code = format!("R{}", NEXT_ROOM.fetch_add(1, Ordering::Relaxed));
                let new = Arc::new(Mutex::new(Room {
                    seats: vec![outbox.clone()],
                    version: 0,
                }));
                lock(&rooms).insert(code.clone(), new.clone());
                let _ = outbox.try_send(reply(&message["id"], &code));
                room = Some((code, new));
            }
            Some("join") => {
                let code = message["code"].as_str().unwrap_or_default().to_owned();
                let Some(found) = lock(&rooms).get(&code).cloned() else {
                    continue;
                };
                lock(&found).seats.push(outbox.clone());
                let _ = outbox.try_send(reply(&message["id"], &code));
                room = Some((code, found));
            }
            Some("start") => {
                let Some((code, r)) = &room else { continue };
                let _ = outbox.try_send(reply(&message["id"], code));
                for (you, seat) in lock(r).seats.iter().enumerate() {
                    let _ = seat.try_send(state_frame(code, 0, you, 0));
                }
            }
            Some("act") => {
                let Some((code, r)) = &room else { continue };
                let mut r = lock(r);
                r.version += 1;
                let version = r.version;
                let to_act = (version as usize) % r.seats.len();
                let events = events_frame(code, version);
                for (you, seat) in r.seats.iter().enumerate() {
                    let _ = seat.try_send(events.clone());
                    if version < GAME_LENGTH {
                        let _ = seat.try_send(state_frame(code, version, you, to_act));
                    } else {
                        let _ = seat.try_send(state_frame(code, version, you, usize::MAX));
                        let _ = seat.try_send(
                            json!({"type": "result", "room": code, "winners": [0]}).to_string(),
                        );
                    }
                }
            }
            Some("leave") => {
                if let Some((code, _)) = room.take() {
                    lock(&rooms).remove(&code);
                }
            }
            _ => {}
        }
    }
}
