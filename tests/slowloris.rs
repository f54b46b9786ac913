//! Connections that never finish their request (slowloris) cannot tie the
//! server up (issue 12): a request deadline closes them, per-peer and total
//! caps refuse the surplus at once, and meanwhile a real game is answered
//! and new players get in. From one address and from many loopback
//! addresses (127.0.0.x).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use splendor_e2e::{Dice, SAFETY_TIMEOUT, TestClient, TestServer, open_table};
use splendor_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Half a WebSocket handshake: the head never ends.
const PARTIAL: &[u8] = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n";

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        ..Config::default()
    }
}

/// A connection from `from` that sends half a request head.
async fn slowloris(server: SocketAddr, from: Ipv4Addr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("a socket");
    socket
        .bind(SocketAddr::new(IpAddr::V4(from), 0))
        .expect("bind a loopback address");
    let mut stream = socket.connect(server).await.expect("TCP connect");
    // A refused connection may already be closed: the write may fail.
    let _ = stream.write_all(PARTIAL).await;
    stream
}

/// Waits until the server closes `stream` (end of stream or a reset).
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 256];
    let read = tokio::time::timeout(SAFETY_TIMEOUT, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                // An answer (a 4xx) is fine too; the close follows.
                Ok(_) => {}
            }
        }
    })
    .await;
    read.is_ok()
}

/// How many of `streams` the server closed within `window`, all watched
/// at once (a refusal is at once; the request deadline in these tests is
/// much longer than the window).
async fn closed_within(streams: &mut [TcpStream], window: Duration) -> usize {
    let watches = streams.iter_mut().map(|stream| async move {
        let mut buf = [0u8; 256];
        matches!(
            tokio::time::timeout(window, stream.read(&mut buf)).await,
            Ok(Ok(0) | Err(_))
        )
    });
    futures_util::future::join_all(watches)
        .await
        .into_iter()
        .filter(|&closed| closed)
        .count()
}

#[tokio::test]
async fn the_request_deadline_closes_half_requests_while_a_game_is_answered() {
    let server = TestServer::start_with(Config {
        request_deadline: Duration::from_secs(1),
        ..config()
    })
    .await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let mut partial = Vec::new();
    for _ in 0..40 {
        partial.push(slowloris(server.addr(), Ipv4Addr::LOCALHOST).await);
    }
    // The game goes on: every move is answered while the half requests wait.
    let (version, _, _) = table.play(0, 12, &mut Dice(3)).await;
    assert_eq!(version, 12);
    // Each half request is closed by the server (by the deadline: nothing
    // else closes a connection that stays under the caps).
    for stream in &mut partial {
        assert!(
            closed_by_server(stream).await,
            "a half request was held open"
        );
    }
    let timeouts = server.metric("splendor_request_deadlines_total").await;
    assert!(timeouts >= 40.0, "{timeouts} request deadlines");
    // New players still get in, and the game still answers.
    let mut carl = TestClient::join_server(&server, "carl").await;
    let rooms = carl
        .request(serde_json::json!({"type": "list_rooms"}))
        .await;
    assert_eq!(rooms["type"], "rooms", "{rooms}");
    let (version, _, _) = table.play(version, 4, &mut Dice(4)).await;
    assert_eq!(version, 16);
}

#[tokio::test]
async fn per_peer_and_total_caps_refuse_the_surplus_at_once() {
    // A long deadline: here a connection closed within seconds was refused.
    let server = TestServer::start_with(Config {
        request_deadline: Duration::from_secs(120),
        max_tcp_per_peer: 10,
        max_tcp_connections: 60,
        ..config()
    })
    .await;
    let window = Duration::from_secs(3);

    // One address: 10 held, the rest closed at once.
    let mut one = Vec::new();
    for _ in 0..25 {
        one.push(slowloris(server.addr(), Ipv4Addr::LOCALHOST).await);
    }
    let refused = closed_within(&mut one, window).await;
    assert_eq!(refused, 15, "one peer holds at most 10 connections");

    // Many addresses (127.0.0.2 to 127.0.0.9, 8 each = 64): the per-peer cap
    // lets each hold 8, the total cap of 60 (10 held already) lets 50 in.
    let mut many = Vec::new();
    for host in 2..=9u8 {
        for _ in 0..8 {
            many.push(slowloris(server.addr(), Ipv4Addr::new(127, 0, 0, host)).await);
        }
    }
    let refused = closed_within(&mut many, window).await;
    assert_eq!(refused, 14, "60 connections at most in all");
}

/// A kept-alive HTTP connection serves request after request; once idle
/// for the deadline after its last answer, it is closed too.
#[tokio::test]
async fn a_kept_alive_connection_is_served_then_closed_when_idle() {
    let server = TestServer::start_with(Config {
        request_deadline: Duration::from_secs(1),
        ..config()
    })
    .await;
    let mut stream = TcpStream::connect(server.addr()).await.expect("connect");
    for _ in 0..3 {
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("send a request");
        let answer = read_answer(&mut stream).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    assert!(
        closed_by_server(&mut stream).await,
        "an idle kept-alive connection stays open"
    );
}

/// One whole HTTP answer (head and a `content-length` body) as text.
async fn read_answer(stream: &mut TcpStream) -> String {
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let text = String::from_utf8_lossy(&answer).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length: usize = text[..end]
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().ok())?
                })
                .unwrap_or(0);
            if answer.len() >= end + 4 + length {
                return text;
            }
        }
        let n = tokio::time::timeout(SAFETY_TIMEOUT, stream.read(&mut buf))
            .await
            .expect("an answer in time")
            .expect("read");
        assert!(n > 0, "closed before answering");
        answer.extend_from_slice(&buf[..n]);
    }
}
