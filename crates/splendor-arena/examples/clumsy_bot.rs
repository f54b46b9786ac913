//! A bot program for the arena's tests (issue 51): it joins the room the
//! arena names and plays its first legal action, but on its first turn of
//! each game it first sends a move the rules refuse (two colours while
//! five are in the supply, R4.2), which the room refuses: the arena must
//! report that refusal, by seat.
//!
//! `SPLENDOR_URL`, `SPLENDOR_ROOM` and `SPLENDOR_BOT_NAME` as the arena
//! sets them.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Socket, message: Value) -> Result<(), Box<dyn std::error::Error>> {
    ws.send(Message::text(message.to_string())).await?;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::var("SPLENDOR_URL")?;
    let room = std::env::var("SPLENDOR_ROOM")?;
    let name = std::env::var("SPLENDOR_BOT_NAME").unwrap_or_else(|_| "clumsy".into());
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str()).await?;
    send(
        &mut ws,
        json!({"type": "hello", "name": name, "bot": true, "verbose": true}),
    )
    .await?;
    let mut clumsy = true;
    let mut answered = None;
    while let Some(frame) = ws.next().await {
        let Message::Text(text) = frame? else {
            continue;
        };
        let msg: Value = serde_json::from_str(&text)?;
        match msg["type"].as_str() {
            Some("welcome") => {
                send(
                    &mut ws,
                    json!({"type": "join", "code": room, "as": "player"}),
                )
                .await?;
            }
            Some("state") => {
                let Some(legal) = msg["legal_actions"].as_array().filter(|l| !l.is_empty()) else {
                    continue;
                };
                let version = msg["version"].as_u64();
                if answered == version {
                    continue;
                }
                answered = version;
                if clumsy {
                    clumsy = false;
                    let wrong = json!({"take": ["white", "blue"]});
                    send(&mut ws, json!({"type": "act", "id": "wrong", "action": wrong, "expect_version": version})).await?;
                }
                send(
                    &mut ws,
                    json!({"type": "act", "action": legal[0], "expect_version": version}),
                )
                .await?;
            }
            Some("result") => return Ok(()),
            Some("error") => eprintln!("refused: {msg}"),
            _ => {}
        }
    }
    Ok(())
}
