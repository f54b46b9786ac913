//! The connection's log lines and the room they name.
//!
//! This test installs a tracing subscriber for its own thread. It lives in a
//! test binary of its own: tracing caches, per process, whether a call site
//! is enabled, and tests running beside it on other threads (with no
//! subscriber) made the cache say "never" for the very events it reads, so
//! it failed when run together with tests/hosting.rs.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

fn assert_error(reply: &Value, code: &str) {
    assert_eq!(reply["type"], "error", "{reply}");
    assert_eq!(reply["code"], code, "{reply}");
    assert!(
        reply["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{reply}"
    );
}

/// Where a test's log lines go: a shared buffer.
#[derive(Clone, Default)]
struct LogBuffer(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuffer {
    /// The `room` fields of the spans of every "request rejected" event
    /// with this error code, in order.
    fn rooms_of_rejections(&self, code: &str) -> Vec<Vec<String>> {
        let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter(|event| {
                event["fields"]["message"] == "request rejected" && event["fields"]["code"] == code
            })
            .map(|event| {
                event["spans"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|span| span["room"].as_str().map(str::to_owned))
                    .collect()
            })
            .collect()
    }
}

/// A connection's log lines name the room it is in while it is in it, and
/// no room once it left or the room closed.
#[tokio::test]
async fn log_lines_of_a_connection_follow_its_room() {
    use tracing_subscriber::util::SubscriberInitExt;
    let logs = LogBuffer::default();
    let writer = logs.clone();
    // This test's runtime runs on this thread only: every task logs here.
    let _logging = tracing_subscriber::fmt()
        .json()
        .with_max_level(tracing_subscriber::filter::LevelFilter::DEBUG)
        .with_writer(move || writer.clone())
        .finish()
        .set_default();
    let config = Config {
        empty_room_ttl: Duration::from_millis(50),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let first = ann.request(json!({"type": "create", "seats": 2})).await;
    let first = first["code"].as_str().unwrap().to_owned();
    // In the room: a refused start names it.
    assert_error(
        &ann.request(json!({"type": "start"})).await,
        "not_enough_players",
    );
    // After a leave: a refused sync names no room.
    assert_eq!(ann.request(json!({"type": "leave"})).await["type"], "left");
    assert_error(&ann.request(json!({"type": "sync"})).await, "not_in_room");
    // In bob's room as a spectator, until it closes by itself.
    let mut bob = TestClient::join_server(&server, "bob").await;
    let second = bob.request(json!({"type": "create", "seats": 2})).await;
    let second = second["code"].as_str().unwrap().to_owned();
    ann.request(json!({"type": "join", "code": second, "as": "spectator"}))
        .await;
    assert_error(&ann.request(json!({"type": "start"})).await, "not_host");
    bob.disconnect().await;
    ann.recv_type("room_closed").await;
    assert_error(&ann.request(json!({"type": "sync"})).await, "not_in_room");

    assert_eq!(
        logs.rooms_of_rejections("not_enough_players"),
        vec![vec![first.clone()]]
    );
    let rejected_in = logs.rooms_of_rejections("not_host");
    assert_eq!(rejected_in, vec![vec![second.clone()]]);
    assert_eq!(
        logs.rooms_of_rejections("not_in_room"),
        vec![Vec::<String>::new(), Vec::new()],
        "after leaving {first}, and after {second} closed"
    );
}
