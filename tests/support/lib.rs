//! Shared helpers for the end-to-end tests in `tests/`: a real server on
//! port 0 ([`TestServer`]) and a real WebSocket client ([`TestClient`],
//! tokio-tungstenite) that records every frame it receives.
//!
//! Tests wait for specific messages with [`TestClient::recv_until`]; the
//! timeout in there is only a safety net against a hung test.
//!
//! [`process`] runs the real server binary as a child process on a database
//! of its own ([`ServerProcess`], [`TestDatabase`]), for the crash test.
#![forbid(unsafe_code)]

mod games;
mod hosting;

pub mod browser;
pub mod faultproxy;
pub mod haproxy;
pub mod hook;
pub mod leaks;
pub mod operators;
pub mod process;
pub mod steady;
pub mod takeover;

pub use games::*;
pub use hosting::*;
pub use process::{ServerProcess, TestDatabase, http_get};

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

use splendor_protocol::{ServerMessage, StateInfo, Welcome};
use splendor_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

/// How long any single wait may take before the test fails.
pub const SAFETY_TIMEOUT: Duration = Duration::from_secs(20);

/// The server, started on 127.0.0.1 port 0; shut down when dropped.
pub struct TestServer {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    /// A server with the default configuration (but for the message rate)
    /// and an in-memory database.
    pub async fn start() -> TestServer {
        TestServer::start_with(Config {
            // Test clients play as fast as the server answers, faster than
            // the public default of 20 messages a second per connection;
            // tests/hosting.rs tests the rate limit with its own settings.
            max_messages_per_second: 10_000,
            message_burst: 10_000,
            // Tests poll the API; tests/hosting.rs tests its limit.
            max_api_requests_per_ip_per_minute: 0,
            ..Config::default()
        })
        .await
    }

    /// The server as `config` says, except that without a `database_url`
    /// it keeps its database in memory (tests never write to `./data`).
    pub async fn start_with(mut config: Config) -> TestServer {
        if config.database_url.is_none() {
            config.database_url = Some("sqlite::memory:".parse().expect("a database URL"));
        }
        let state = splendor_server::AppState::open(config)
            .await
            .expect("open the server's database");
        TestServer::start_with_state(state).await
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The WebSocket URL.
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Shuts the server down and waits until `run` returned.
    pub async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        match self.task.take() {
            Some(task) => tokio::time::timeout(SAFETY_TIMEOUT, task)
                .await
                .expect("server did not stop")
                .expect("server task panicked"),
            None => Ok(()),
        }
    }

    /// A plain HTTP/1.1 GET; returns the status code and the body.
    pub async fn http_get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).await.expect("connect");
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut response = Vec::new();
        tokio::time::timeout(SAFETY_TIMEOUT, stream.read_to_end(&mut response))
            .await
            .expect("HTTP response in time")
            .expect("read");
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("status line");
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default();
        (status, body)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A WebSocket client that records every frame it receives.
pub struct TestClient {
    /// The client's display name.
    pub name: String,
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every text frame received, in order (for leak checks).
    pub frames: Vec<String>,
    /// The close frame received (code, reason), once the server closed.
    pub close: Option<(u16, String)>,
    /// The session token from `welcome`.
    pub token: Option<String>,
    /// The last full state: what a lean state (protocol 2) leaves out
    /// (the game's id and commitment, the first seat, the names) is there.
    last_full: Option<StateInfo>,
    next_id: u64,
}

impl TestClient {
    /// Connects without identifying.
    pub async fn connect(server: &TestServer, name: &str) -> TestClient {
        TestClient::connect_to(server.addr(), name).await
    }

    /// Connects to the server at `addr` (e.g. a [`ServerProcess`]) without identifying.
    pub async fn connect_to(addr: SocketAddr, name: &str) -> TestClient {
        TestClient::try_connect_to(addr, name)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// [`TestClient::connect_to`], or why the handshake failed (a proxy
    /// whose node just died answers 502; a client tries again).
    pub async fn try_connect_to(addr: SocketAddr, name: &str) -> Result<TestClient, String> {
        TestClient::try_connect_at(addr, "/ws", name).await
    }

    /// Connects to `path` (with its query: `/ws?node=2`) at `addr`.
    pub async fn try_connect_at(
        addr: SocketAddr,
        path: &str,
        name: &str,
    ) -> Result<TestClient, String> {
        let url = format!("ws://{addr}{path}");
        let (ws, _) = tokio::time::timeout(SAFETY_TIMEOUT, connect_async(url))
            .await
            .map_err(|_| "no handshake in time".to_owned())?
            .map_err(|e| format!("WebSocket handshake: {e}"))?;
        Ok(TestClient {
            name: name.to_owned(),
            ws,
            frames: Vec::new(),
            close: None,
            token: None,
            last_full: None,
            next_id: 1,
        })
    }

    /// Connects and says hello with a new session.
    pub async fn join_server(server: &TestServer, name: &str) -> TestClient {
        let mut client = TestClient::connect(server, name).await;
        client.hello().await;
        client
    }

    /// Sends a text frame as it is (malformed ones too).
    pub async fn send_text(&mut self, text: impl Into<String>) {
        let text: String = text.into();
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send frame");
    }

    /// Sends a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .expect("send frame");
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, message: Value) {
        self.send_text(message.to_string()).await;
    }

    /// Sends `message` with a fresh request id and returns the id.
    pub async fn send_with_id(&mut self, mut message: Value) -> Value {
        let id = json!(format!("{}-{}", self.name, self.next_id));
        self.next_id += 1;
        message["id"] = id.clone();
        self.send(message).await;
        id
    }

    /// Sends `message` with a fresh id and waits for the message answering it
    /// (the reply or an error).
    pub async fn request(&mut self, message: Value) -> Value {
        let id = self.send_with_id(message).await;
        self.recv_until(|m| m.get("id") == Some(&id)).await
    }

    /// The next frame as JSON. Panics if the connection closes first.
    pub async fn recv(&mut self) -> Value {
        // One deadline for the call: the server's pings (every 20 s) must
        // not keep a stalled wait alive.
        let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no frame within {SAFETY_TIMEOUT:?}", self.name));
            match frame {
                Some(Ok(Message::Text(text))) => {
                    self.frames.push(text.as_str().to_owned());
                    let value: Value = serde_json::from_str(text.as_str()).unwrap_or_else(|e| {
                        panic!(
                            "{}: server sent invalid JSON {e}: {}",
                            self.name,
                            text.as_str()
                        )
                    });
                    if value["type"] == "state" && value["lean"] != true {
                        self.last_full = serde_json::from_value(value.clone()).ok();
                    }
                    return value;
                }
                Some(Ok(Message::Close(frame))) => {
                    self.close = frame.map(|f| (u16::from(f.code), f.reason.as_str().to_owned()));
                    panic!("{}: connection closed {:?}", self.name, self.close);
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => panic!("{}: socket error {e}", self.name),
                None => panic!("{}: connection ended", self.name),
            }
        }
    }

    /// The next frame as JSON, or how the connection ended (the close
    /// frame's code, if one came): for clients that carry on through a
    /// server's restart. Panics only if nothing comes within the safety
    /// timeout.
    pub async fn try_recv(&mut self) -> Result<Value, Option<u16>> {
        // One deadline for the call: the server's pings (every 20 s) must
        // not keep a stalled wait alive.
        let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no frame within {SAFETY_TIMEOUT:?}", self.name));
            match frame {
                Some(Ok(Message::Text(text))) => {
                    self.frames.push(text.as_str().to_owned());
                    let value: Value = serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("{}: invalid JSON {e}: {text}", self.name));
                    if value["type"] == "state" && value["lean"] != true {
                        self.last_full = serde_json::from_value(value.clone()).ok();
                    }
                    return Ok(value);
                }
                Some(Ok(Message::Close(frame))) => {
                    self.close = frame.map(|f| (u16::from(f.code), f.reason.as_str().to_owned()));
                    return Err(self.close.as_ref().map(|c| c.0));
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return Err(None),
            }
        }
    }

    /// Reads frames until one matches `pred`, and returns it.
    pub async fn recv_until(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        loop {
            let message = self.recv().await;
            if pred(&message) {
                return message;
            }
        }
    }

    /// The next frame, past the `history` that comes before the state on
    /// join, resume and sync of a started game (checked to lead to a
    /// version and list every action up to it).
    pub async fn recv_after_history(&mut self) -> Value {
        let frame = self.recv().await;
        if frame["type"] != "history" {
            return frame;
        }
        let actions = frame["actions"].as_array().expect("history actions");
        assert_eq!(
            actions.len() as u64,
            frame["version"].as_u64().expect("history version"),
            "{}: a history lists every action: {frame}",
            self.name
        );
        self.recv().await
    }

    /// Reads frames until one has this `type`.
    pub async fn recv_type(&mut self, kind: &str) -> Value {
        self.recv_until(|m| m["type"] == kind).await
    }

    /// Reads frames until one parses as a server message matching `pred`.
    pub async fn recv_message(
        &mut self,
        mut pred: impl FnMut(&ServerMessage) -> bool,
    ) -> ServerMessage {
        loop {
            let value = self.recv().await;
            let message: ServerMessage =
                serde_json::from_value(value.clone()).unwrap_or_else(|e| {
                    panic!("{}: unparsable server message {e}: {value}", self.name)
                });
            if pred(&message) {
                return message;
            }
        }
    }

    /// The next `state` message, a lean one read back into the full state
    /// (see [`TestClient::full`]).
    pub async fn state(&mut self) -> StateInfo {
        match self
            .recv_message(|m| matches!(m, ServerMessage::State(_)))
            .await
        {
            ServerMessage::State(s) => self.full(s),
            _ => unreachable!(),
        }
    }

    /// The next `state` message with exactly this version, a lean one read
    /// back into the full state (see [`TestClient::full`]).
    pub async fn state_at(&mut self, version: u64) -> StateInfo {
        match self
            .recv_message(|m| matches!(m, ServerMessage::State(s) if s.version == version))
            .await
        {
            ServerMessage::State(s) => self.full(s),
            _ => unreachable!(),
        }
    }

    /// A state as a full one: a lean state (protocol 2) already has its
    /// cards' details (the protocol crate reads them back from their ids);
    /// this adds what it leaves out from the last full state.
    /// `tests/in_game.rs` checks that this gives exactly the full state.
    pub fn full(&self, state: StateInfo) -> StateInfo {
        match &self.last_full {
            Some(full) => state.completed_from(full),
            _ => state,
        }
    }

    /// Says hello with this client's name; remembers the token.
    pub async fn hello(&mut self) -> Welcome {
        let name = self.name.clone();
        let reply = self.request(json!({"type": "hello", "name": name})).await;
        self.welcome_from(reply)
    }

    /// Says hello with a token, resuming a session.
    pub async fn resume(&mut self, token: &str) -> Welcome {
        let reply = self.request(json!({"type": "hello", "token": token})).await;
        self.welcome_from(reply)
    }

    fn welcome_from(&mut self, reply: Value) -> Welcome {
        assert_eq!(reply["type"], "welcome", "{}: {reply}", self.name);
        let welcome: Welcome = serde_json::from_value(reply).expect("welcome");
        self.token = Some(welcome.token.clone());
        welcome
    }

    /// Waits for the server to close the connection; returns the close code
    /// and reason. Frames before the close are recorded.
    pub async fn expect_close(&mut self) -> (u16, String) {
        // One deadline for the call: the server's pings (every 20 s) must
        // not keep a stalled wait alive.
        let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: not closed within {SAFETY_TIMEOUT:?}", self.name));
            match frame {
                Some(Ok(Message::Text(text))) => self.frames.push(text.as_str().to_owned()),
                Some(Ok(Message::Close(frame))) => {
                    let close = frame
                        .map(|f| (u16::from(f.code), f.reason.as_str().to_owned()))
                        .unwrap_or((1005, String::new()));
                    self.close = Some(close.clone());
                    return close;
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => panic!("{}: socket error before a close frame: {e}", self.name),
                None => panic!("{}: connection ended without a close frame", self.name),
            }
        }
    }

    /// Reads until the connection ends, however it ends (a close frame, a
    /// reset, a killed server), recording every text frame; never panics.
    /// Returns the close frame's code, if one came.
    pub async fn read_until_gone(&mut self) -> Option<u16> {
        // One deadline for the call: the server's pings (every 20 s) must
        // not keep a stalled wait alive.
        let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: still open after {SAFETY_TIMEOUT:?}", self.name));
            match frame {
                Some(Ok(Message::Text(text))) => self.frames.push(text.as_str().to_owned()),
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Closes the connection from the client side (like a closed tab).
    pub async fn disconnect(mut self) -> Vec<String> {
        let _ = self.ws.close(None).await;
        // Drain until the server's close reply, so the server saw the close.
        let _ = tokio::time::timeout(SAFETY_TIMEOUT, async {
            while let Some(Ok(_)) = self.ws.next().await {}
        })
        .await;
        self.frames
    }
}
