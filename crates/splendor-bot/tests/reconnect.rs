//! A scripted stand-in server closes the connection with 1012 (restart)
//! right after the bot acted; the bot resumes with its token, gets its
//! seat back and chooses again, and the game finishes.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use splendor_bot::{Config, run_bot};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{WebSocketStream, accept_async};

type Socket = WebSocketStream<TcpStream>;

async fn accept(listener: &TcpListener) -> Socket {
    let (tcp, _) = listener.accept().await.expect("accept");
    accept_async(tcp).await.expect("handshake")
}

async fn send(ws: &mut Socket, message: Value) {
    ws.send(Message::text(message.to_string()))
        .await
        .expect("send");
}

/// The next frame the bot sent, as JSON.
async fn recv(ws: &mut Socket) -> Value {
    loop {
        match ws.next().await.expect("a frame").expect("no error") {
            Message::Text(text) => return serde_json::from_str(text.as_str()).expect("JSON"),
            Message::Close(_) => panic!("the bot closed the connection"),
            _ => {}
        }
    }
}

fn room(status: &str) -> Value {
    json!({"type": "room", "code": "ABCDE", "listed": false, "status": status,
           "seats": [{"seat": 0, "name": "ann", "connected": true, "host": true},
                     {"seat": 1, "name": "bob", "connected": true, "host": false}],
           "spectators": [], "you": {"role": "player", "seat": 0}})
}

fn state(version: u64, to_act: Option<u8>) -> Value {
    let player = |n: u8| {
        json!({"seat": n, "name": "p", "points": 0, "tokens": {},
        "bonuses": {}, "cards": [], "nobles": [], "reserved": []})
    };
    let mut s = json!({"type": "state", "room": "ABCDE", "game": "g", "commitment": "c",
        "version": version, "you": 0, "phase": "game_over", "first_seat": 0, "turn": version,
        "supply": {}, "levels": [], "nobles": [], "players": [player(0), player(1)],
        "end_triggered": true});
    if let Some(seat) = to_act {
        s["phase"] = json!("main");
        s["to_act"] = json!(seat);
        s["legal_actions"] = json!(["pass"]);
    }
    s
}

#[tokio::test]
async fn a_bot_resumes_its_seat_after_a_server_restart() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("ws://{}/ws", listener.local_addr().expect("addr"));
    let server = tokio::spawn(async move {
        let mut ws = accept(&listener).await;
        assert_eq!(recv(&mut ws).await["name"], "ann");
        send(
            &mut ws,
            json!({"type": "welcome", "id": "hello", "session": "s",
                             "token": "secret", "name": "ann", "resumed": false}),
        )
        .await;
        assert_eq!(recv(&mut ws).await["type"], "create");
        send(&mut ws, room("playing")).await;
        send(&mut ws, state(7, Some(0))).await;
        assert_eq!(recv(&mut ws).await["id"], "act-7");
        // The server restarts before the action was applied.
        let restart = CloseFrame {
            code: CloseCode::Restart,
            reason: "restarting".into(),
        };
        ws.close(Some(restart)).await.expect("close");
        drop(ws);

        let mut ws = accept(&listener).await;
        let hello = recv(&mut ws).await;
        assert_eq!(
            (&hello["token"], hello.get("name")),
            (&json!("secret"), None),
            "{hello}"
        );
        send(
            &mut ws,
            json!({"type": "welcome", "id": "hello", "session": "s",
                             "token": "secret", "name": "ann", "resumed": true}),
        )
        .await;
        assert_eq!(recv(&mut ws).await["id"], "resume");
        send(&mut ws, room("playing")).await;
        send(&mut ws, state(7, Some(0))).await;
        // The same version again: the lost action is sent again.
        let act = recv(&mut ws).await;
        assert_eq!(
            (&act["id"], &act["expect_version"]),
            (&json!("act-7"), &json!(7))
        );
        send(
            &mut ws,
            json!({"type": "events", "id": "act-7", "room": "ABCDE", "version": 8,
                             "events": [{"event": "passed", "seat": 0}]}),
        )
        .await;
        send(&mut ws, state(8, None)).await;
        send(
            &mut ws,
            json!({"type": "result", "room": "ABCDE", "winners": [1], "deadlock": false,
            "ranking": [{"seat": 1, "name": "bob", "points": 15, "cards": 9, "rank": 1},
                        {"seat": 0, "name": "ann", "points": 3, "cards": 4, "rank": 2}],
            "game": "g", "reveal": {"commitment": "c", "seed": "0", "salt": "0"}}),
        )
        .await;
    });
    let outcome = tokio::time::timeout(Duration::from_secs(30), run_bot(Config::new(url, "ann")))
        .await
        .expect("in time")
        .expect("the bot finishes the game");
    server.await.expect("the script ran to its end");
    assert_eq!(
        (outcome.seat, outcome.version, outcome.actions),
        (Some(0), 8, 1)
    );
    assert_eq!(outcome.token, "secret");
}
