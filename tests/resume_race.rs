//! Resumes of one token at once (issue 22, defect 2): a hostile test found
//! that ten concurrent resumes left no connection attached to the room in
//! 18 of 30 rounds (presence's claim and the room's rejoin each replace the
//! connection, and ran in opposite orders). Exactly the last claimant must
//! survive, attached to its seat; every other one is closed as replaced.

use futures_util::future::join_all;
use serde_json::json;
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

const RESUMES: usize = 10;
const ROUNDS: usize = 12;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_ten_resumes_of_one_token_at_once_exactly_one_stays_attached() {
    // Every client here is 127.0.0.1: lift the per-address limits.
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        max_connects_per_ip_per_minute: 100_000,
        max_connections_per_ip: 10_000,
        ..Config::default()
    })
    .await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = ann.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    let token = ann.token.clone().expect("ann's token");

    for round in 0..ROUNDS {
        let mut clients = Vec::new();
        for i in 0..RESUMES {
            clients.push(TestClient::connect(&server, &format!("ann-{round}-{i}")).await);
        }
        // All at once: each sends its hello and reads up to its welcome.
        let welcomed = join_all(clients.into_iter().map(|mut client| {
            let token = token.clone();
            async move {
                client.send(json!({"type": "hello", "token": token})).await;
                loop {
                    match client.try_recv().await {
                        Ok(m) if m["type"] == "welcome" => return (client, true),
                        Ok(_) => {}
                        Err(_) => return (client, false),
                    }
                }
            }
        }))
        .await;
        // Then each asks for the game: only a connection the room holds
        // answers with the room, in ann's seat; the others are closed as
        // replaced.
        let outcomes = join_all(
            welcomed
                .into_iter()
                .map(|(mut client, welcomed)| async move {
                    if !welcomed {
                        return "closed before its welcome".to_owned();
                    }
                    client.send(json!({"type": "sync", "id": "s"})).await;
                    loop {
                        match client.try_recv().await {
                            // `sync` answers with the room (then the state).
                            Ok(m) if m["id"] == "s" && m["type"] == "room" => {
                                let seat = m["you"]["seat"].as_u64().expect("a seat") as usize;
                                assert_eq!(m["seats"][seat]["name"], "ann", "{m}");
                                return "attached".to_owned();
                            }
                            Ok(m) if m["id"] == "s" => return format!("answered {m}"),
                            Ok(_) => {}
                            Err(Some(4001)) => return "replaced".to_owned(),
                            Err(code) => return format!("ended {code:?}"),
                        }
                    }
                }),
        )
        .await;
        let attached = outcomes.iter().filter(|o| *o == "attached").count();
        let replaced = outcomes.iter().filter(|o| *o == "replaced").count();
        assert_eq!(
            (attached, replaced),
            (1, RESUMES - 1),
            "round {round}: {outcomes:?}"
        );
    }
}
