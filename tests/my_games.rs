//! `GET /api/me/games` (issue 25) against the real server: a player's
//! games, those waiting for them first, for the page's "My games" and for
//! programs; 401 without the session's token; nothing hidden in it.

use serde_json::{Value, json};
use splendor_e2e::process::http_get_with;
use splendor_e2e::{TestClient, TestServer};

async fn my_games(server: &TestServer, token: &str) -> Value {
    let auth = format!("Bearer {token}");
    let (status, body) =
        http_get_with(server.addr(), "/api/me/games", &[("Authorization", &auth)]).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

fn rooms(list: &Value) -> Vec<(String, String, bool)> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["room"].as_str().unwrap().to_owned(),
                g["status"].as_str().unwrap().to_owned(),
                g["your_turn"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// `host` makes a room of two with `options`, `guest` joins, `host` starts
/// it moving first. Returns the code.
async fn started(host: &mut TestClient, guest: &mut TestClient, options: Value) -> String {
    let mut create = json!({"type": "create", "seats": 2});
    for (k, v) in options.as_object().unwrap() {
        create[k] = v.clone();
    }
    let room = host.request(create).await;
    let code = room["code"].as_str().unwrap().to_owned();
    guest.request(json!({"type": "join", "code": code})).await;
    host.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    code
}

#[tokio::test]
async fn a_player_sees_every_game_they_sit_in_theirs_to_play_first() {
    let server = TestServer::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let mut cy = TestClient::join_server(&server, "cy").await;
    let token = |c: &TestClient| c.token.clone().unwrap();

    // A turn-based game that waits for Ann; she leaves it, keeping the seat.
    let day = started(
        &mut ann,
        &mut bob,
        json!({"turn_based": {"per_move_s": 86_400}}),
    )
    .await;
    ann.state().await;
    ann.request(json!({"type": "leave"})).await;
    // A live game in which Ann moved and Cy is to play; she leaves it too.
    let live = started(&mut ann, &mut cy, json!({})).await;
    let state = ann.state().await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    ann.request(json!({"type": "leave"})).await;
    // A room that waits for players, where Ann is now.
    let waiting = ann.request(json!({"type": "create", "seats": 3})).await["code"]
        .as_str()
        .unwrap()
        .to_owned();

    let list = my_games(&server, &token(&ann)).await;
    assert_eq!(
        rooms(&list),
        [
            (day.clone(), "playing".to_owned(), true),
            (live.clone(), "playing".to_owned(), false),
            (waiting.clone(), "waiting".to_owned(), false),
        ],
        "{list}"
    );
    let first = &list["games"][0];
    assert_eq!(first["turn_based"]["per_move_s"], 86_400, "{first}");
    assert_eq!(first["players"][1]["name"], "bob", "{first}");
    assert_eq!(
        (first["seat"].clone(), first["to_act"].clone()),
        (json!(0), json!(0))
    );
    // R12.5: the deadline is a day after the start, by the server's clock.
    let now = list["now"].as_i64().unwrap();
    let deadline = first["deadline"].as_i64().unwrap();
    assert!(
        deadline > now + 86_000_000 && deadline <= now + 86_400_000,
        "{deadline} against {now}"
    );
    let second = &list["games"][1];
    assert_eq!(second["last_move"]["seat"], 0, "{second}");
    assert_eq!(second["version"], 1, "{second}");
    assert!(second.get("deadline").is_none(), "{second}");
    assert_eq!(list["games"][2]["seats"], 3);
    // Nothing of the games' hidden parts.
    let text = list.to_string();
    for hidden in ["seed", "salt", "deck", "reserved"] {
        assert!(!text.contains(hidden), "{hidden} in {text}");
    }

    // Each player sees their own games: Cy's is his turn, Bob's is not.
    assert_eq!(
        rooms(&my_games(&server, &token(&cy)).await),
        [(live.clone(), "playing".to_owned(), true)]
    );
    assert_eq!(
        rooms(&my_games(&server, &token(&bob)).await),
        [(day.clone(), "playing".to_owned(), false)]
    );
    // Bob resigns (R13): one person is left, the game is over and no longer
    // anyone's game in play.
    bob.request(json!({"type": "resign"})).await;
    bob.recv_type("result").await;
    assert!(rooms(&my_games(&server, &token(&bob)).await).is_empty());
    let list = my_games(&server, &token(&ann)).await;
    assert_eq!(
        rooms(&list)
            .into_iter()
            .map(|(room, ..)| room)
            .collect::<Vec<_>>(),
        [live, waiting]
    );
}

#[tokio::test]
async fn my_games_needs_the_sessions_token() {
    let server = TestServer::start().await;
    for headers in [
        vec![],
        vec![("Authorization", "Bearer not-a-token")],
        vec![("Authorization", "Basic YW5uOmFubg==")],
    ] {
        let (status, body) = http_get_with(server.addr(), "/api/me/games", &headers).await;
        assert_eq!(status, 401, "{headers:?}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["error"], "unauthorized", "{body}");
    }
}

/// R12.5: a player who leaves a turn-based room before its start keeps
/// the seat: the room is in their games while it waits, the one who comes
/// becomes its host and starts it, and it is then a game in play of both.
/// `"give_up":true` frees the seat instead.
#[tokio::test]
async fn a_turn_based_room_keeps_the_seat_of_a_player_who_leaves_before_the_start() {
    let server = TestServer::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let token = ann.token.clone().unwrap();
    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    let left = ann.request(json!({"type": "leave"})).await;
    assert_eq!(left["type"], "left", "{left}");
    assert_eq!(
        rooms(&my_games(&server, &token).await),
        [(code.clone(), "waiting".to_owned(), false)]
    );
    // Ann may make another room meanwhile, and give that one up.
    let other = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 3600}}))
        .await;
    let other = other["code"].as_str().unwrap().to_owned();
    let refused = ann
        .request(json!({"type": "leave", "give_up": "yes"}))
        .await;
    assert_eq!(refused["code"], "invalid_field", "{refused}");
    ann.request(json!({"type": "leave", "give_up": true})).await;
    let list = my_games(&server, &token).await;
    assert!(!list.to_string().contains(&other), "{list}");

    // Bob comes, is the host (Ann is away) and starts.
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["seats"][1]["host"], true, "{joined}");
    let started = bob
        .request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    assert_eq!(started["type"], "room", "{started}");
    let mine = rooms(&my_games(&server, &token).await);
    assert_eq!(mine, [(code.clone(), "playing".to_owned(), true)]);
    // Ann comes back to her seat and plays.
    let back = ann.request(json!({"type": "join", "code": code})).await;
    assert_eq!(back["you"]["seat"], 0, "{back}");
    let state = ann.state().await;
    assert_eq!(state.to_act, Some(0));
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    let theirs = rooms(&my_games(&server, &token).await);
    assert_eq!(theirs, [(code, "playing".to_owned(), false)]);
    // A seat in a game in progress is given up by resigning.
    let refused = ann.request(json!({"type": "leave", "give_up": true})).await;
    assert_eq!(refused["code"], "game_already_started", "{refused}");
    // A turn-based game Ann left does not hold her out of quick play (a
    // live game she left would: seat_held).
    ann.request(json!({"type": "leave"})).await;
    let queued = ann.request(json!({"type": "queue", "players": 2})).await;
    assert_eq!(queued["type"], "queued", "{queued}");
}
