//! Issue 24: a program's sessions are marked as bots to everyone, as
//! Lichess marks a BOT account: `program_bot` in the seats of `room`, a
//! count in the room list, and in `/api/games` and the replay of a
//! finished game. A built-in bot keeps its `bot` level and no mark; a
//! person has neither. Against the real server.

use serde_json::{Value, json};
use splendor_e2e::{Dice, TestClient, TestServer};
use splendor_server::Config;

fn seat(room: &Value, i: usize) -> &Value {
    &room["seats"][i]
}

async fn program(server: &TestServer, name: &str) -> TestClient {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client
        .request(json!({"type": "hello", "name": name, "bot": true}))
        .await;
    assert_eq!(welcome["bot"], true, "{welcome}");
    client.token = Some(welcome["token"].as_str().unwrap().to_owned());
    client
}

#[tokio::test]
async fn a_program_is_marked_in_seats_the_room_list_the_games_list_and_the_replay() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        ..Config::default()
    })
    .await;
    let mut bot = program(&server, "deep-gem").await;
    let room = bot
        .request(json!({"type": "create", "seats": 3, "listed": true}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    assert_eq!(seat(&room, 0)["program_bot"], true, "{room}");
    let code = room["code"].as_str().unwrap().to_owned();

    // The room list counts the program.
    let (status, body) = server.http_get("/api/rooms").await;
    assert_eq!(status, 200);
    let list: Value = serde_json::from_str(&body).unwrap();
    let listed = list["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["code"] == code.as_str())
        .unwrap_or_else(|| panic!("{list}"));
    assert_eq!(listed["programs"], 1, "{listed}");

    // A person who joins sees the mark on the program's seat, none on
    // their own; a built-in bot has its level and no mark.
    let mut ann = TestClient::join_server(&server, "ann").await;
    let joined = ann
        .request(json!({"type": "join", "code": code, "as": "player"}))
        .await;
    assert_eq!(joined["type"], "room", "{joined}");
    assert_eq!(seat(&joined, 0)["program_bot"], true, "{joined}");
    assert!(seat(&joined, 1).get("program_bot").is_none(), "{joined}");
    let room = bot.recv_type("room").await;
    assert!(seat(&room, 1).get("program_bot").is_none(), "{room}");
    let room = bot
        .request(json!({"type": "add_bot", "level": "greedy"}))
        .await;
    assert_eq!(seat(&room, 2)["bot"], "greedy", "{room}");
    assert!(seat(&room, 2).get("program_bot").is_none(), "{room}");
    // The mark comes from the session, not from what a later hello says:
    // the program's session resumed without `"bot":true` keeps it.
    let token = bot.token.clone().unwrap();
    drop(bot);
    let mut bot = TestClient::connect(&server, "deep-gem").await;
    let welcome = bot.resume(&token).await;
    assert!(welcome.bot, "a program stays one");
    let room = bot.recv_type("room").await;
    assert_eq!(seat(&room, 0)["program_bot"], true, "{room}");

    // Ann leaves (giving her seat up) so that the program plays the bot.
    ann.request(json!({"type": "leave", "give_up": true})).await;
    let room = bot.recv_type("room").await;
    assert_eq!(room["seats"].as_array().unwrap().len(), 3, "{room}");
    let room = bot
        .request(json!({"type": "add_bot", "level": "random"}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    bot.send(json!({"type": "start", "seat_order": "joined"}))
        .await;
    let result = bot.play_until_result(&mut Dice(24)).await;
    let game = result["game"].as_str().unwrap().to_owned();

    // The finished game's entry and its replay say which seat a program
    // held.
    let (status, body) = server.http_get("/api/games").await;
    assert_eq!(status, 200, "{body}");
    let games: Value = serde_json::from_str(&body).unwrap();
    let entry = &games["games"][0];
    assert_eq!(entry["id"], game.as_str(), "{games}");
    let seats = entry["seats"].as_array().unwrap();
    assert_eq!(seats[0]["name"], "deep-gem", "{entry}");
    assert_eq!(seats[0]["program_bot"], true, "{entry}");
    assert!(
        seats[1..].iter().all(|s| s.get("program_bot").is_none()),
        "{entry}"
    );
    // Issue 51: the program's seat names its player id (the built-in
    // bots have none), and the game says whether it was rated.
    assert_eq!(seats[0]["player_id"], welcome.player_id.as_str(), "{entry}");
    assert!(
        seats[1..].iter().all(|s| s.get("player_id").is_none()),
        "{entry}"
    );
    assert_eq!(entry["rated"], false, "{entry}");
    let (status, body) = server.http_get(&format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay: Value = serde_json::from_str(&body).unwrap();
    let seats = replay["seats"].as_array().unwrap();
    assert_eq!(seats[0]["program_bot"], true, "{replay}");
    assert!(
        seats[1..]
            .iter()
            .all(|s| s["bot"].is_string() && s.get("program_bot").is_none()),
        "{replay}"
    );
}
