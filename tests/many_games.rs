//! One session in five rooms at once (issue 25): three live games against
//! bots and two turn-based games with another person, all kept going from
//! one connection by `leave` (the seat stays) and `join` (the seat comes
//! back with the state), played each to its end. "My games"
//! (`GET /api/me/games`) lists them all, those waiting for the player
//! first, at every step and across a reconnect, and each game leaves the
//! list when it ends.

use serde_json::{Value, json};
use splendor_e2e::process::http_get_with;
use splendor_e2e::{Dice, choose};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

async fn my_games(server: &TestServer, token: &str) -> Vec<Value> {
    let auth = format!("Bearer {token}");
    let (status, body) =
        http_get_with(server.addr(), "/api/me/games", &[("Authorization", &auth)]).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    list["games"].as_array().unwrap().clone()
}

/// Those waiting for the player come first.
fn ordered(games: &[Value]) -> bool {
    let turns: Vec<bool> = games
        .iter()
        .map(|g| g["your_turn"].as_bool().unwrap())
        .collect();
    turns.windows(2).all(|w| w[0] || !w[1])
}

/// `client` goes to room `code`, makes one move if it is theirs, and
/// leaves again keeping the seat. Whether the game is over.
async fn one_move(client: &mut TestClient, code: &str, dice: &mut Dice) -> bool {
    let joined = client.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{}: {joined}", client.name);
    let state = client.state().await;
    let state = client.full(state);
    let mut over = state.to_act.is_none();
    if !over && state.to_act == state.you {
        let legal = state.legal_actions.clone().expect("legal actions");
        let action = choose(&legal, dice).clone();
        client
            .request(json!({"type": "act", "action": action, "expect_version": state.version}))
            .await;
        let after = client.state().await;
        over = after.to_act.is_none();
    }
    client.request(json!({"type": "leave"})).await;
    over
}

#[tokio::test]
async fn one_session_keeps_five_games_going_from_one_connection_to_their_ends() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 100_000,
        message_burst: 100_000,
        max_api_requests_per_ip_per_minute: 0,
        bot_delay_ms: 0,
        ..Config::default()
    })
    .await;
    let mut gil = TestClient::join_server(&server, "gil").await;
    let mut hal = TestClient::join_server(&server, "hal").await;
    let token = gil.token.clone().unwrap();
    let mut dice = Dice(25);

    // Three live games against a bot each, Gil first to move; he leaves
    // each as it starts.
    let mut live = Vec::new();
    for _ in 0..3 {
        let room = gil.request(json!({"type": "create", "seats": 2})).await;
        let code = room["code"].as_str().unwrap().to_owned();
        gil.request(json!({"type": "add_bot", "level": "random"}))
            .await;
        gil.request(json!({"type": "start", "seat_order": "joined"}))
            .await;
        gil.request(json!({"type": "leave"})).await;
        live.push(code);
    }
    // Two turn-based games with Hal, Gil first.
    let mut turn_based = Vec::new();
    for _ in 0..2 {
        let room = gil
            .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
            .await;
        let code = room["code"].as_str().unwrap().to_owned();
        hal.request(json!({"type": "join", "code": code})).await;
        gil.request(json!({"type": "start", "seat_order": "joined"}))
            .await;
        gil.request(json!({"type": "leave"})).await;
        hal.request(json!({"type": "leave"})).await;
        turn_based.push(code);
    }
    let games = my_games(&server, &token).await;
    assert_eq!(games.len(), 5, "{games:?}");
    assert!(
        games.iter().all(|g| g["your_turn"] == true),
        "every game waits for Gil: {games:?}"
    );

    // A move in each turn-based game: they wait for Hal now, and come
    // after the live ones in Gil's list.
    for code in &turn_based {
        assert!(!one_move(&mut gil, code, &mut dice).await);
    }
    let games = my_games(&server, &token).await;
    assert_eq!(games.len(), 5);
    assert!(ordered(&games), "{games:?}");
    for game in &games[3..] {
        assert!(turn_based.contains(&game["room"].as_str().unwrap().to_owned()));
        assert_eq!(game["your_turn"], false, "{game}");
    }

    // Gil's connection drops and comes back: every game is still his.
    drop(gil);
    let mut gil = TestClient::connect(&server, "gil").await;
    gil.resume(&token).await;
    assert_eq!(my_games(&server, &token).await.len(), 5);

    // Each live game to its end, one after the other, from this connection.
    for (i, code) in live.iter().enumerate() {
        let joined = gil.request(json!({"type": "join", "code": code})).await;
        assert_eq!(joined["type"], "room", "{joined}");
        let result = gil.play_until_result(&mut dice).await;
        assert_eq!(result["type"], "result", "{result}");
        gil.request(json!({"type": "leave"})).await;
        let games = my_games(&server, &token).await;
        assert_eq!(games.len(), 4 - i, "{games:?}");
        assert!(ordered(&games), "{games:?}");
        assert!(games.iter().all(|g| g["room"] != code.as_str()));
    }

    // The turn-based games, a move at a time, whoever's turn it is.
    let mut left = turn_based.clone();
    let mut moves = 0;
    while !left.is_empty() {
        moves += 1;
        assert!(moves < 2_000, "the games end");
        let code = left[0].clone();
        let games = my_games(&server, &token).await;
        assert!(ordered(&games), "{games:?}");
        let mine = games
            .iter()
            .find(|g| g["room"] == code.as_str())
            .map(|g| g["your_turn"] == true);
        let over = match mine {
            Some(true) => one_move(&mut gil, &code, &mut dice).await,
            Some(false) => one_move(&mut hal, &code, &mut dice).await,
            None => true,
        };
        if over {
            left.remove(0);
        } else {
            left.rotate_left(1);
        }
    }
    assert!(my_games(&server, &token).await.is_empty());
}
