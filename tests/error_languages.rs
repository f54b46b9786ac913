//! Error messages in the connection's language (issue 11) against the real
//! server: `hello` names `lang` (en, nl, fr, de), `welcome` echoes it, and
//! every `error` after it says its `message` in that language while `code`
//! (and `rule`) stay the same.

use serde_json::{Value, json};
use splendor_e2e::{Dice, Table, TestClient, TestServer};
use splendor_server::Config;

/// Connects and says hello as `name`, with `lang` if given; the welcome.
async fn hello(server: &TestServer, name: &str, lang: Option<&str>) -> (TestClient, Value) {
    let mut client = TestClient::connect(server, name).await;
    let mut message = json!({"type": "hello", "name": name});
    if let Some(lang) = lang {
        message["lang"] = json!(lang);
    }
    let welcome = client.request(message).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    (client, welcome)
}

/// The `error` a request gets: its code and message.
async fn refused(client: &mut TestClient, request: Value) -> (String, String) {
    let reply = client.request(request.clone()).await;
    assert_eq!(reply["type"], "error", "{request} -> {reply}");
    text_of(&reply)
}

/// An error's code and message.
type Said = (String, String);

fn text_of(error: &Value) -> Said {
    (
        error["code"].as_str().expect("a code").to_owned(),
        error["message"].as_str().expect("a message").to_owned(),
    )
}

/// Something that goes wrong outside a game.
enum Probe {
    /// A request, answered by an error with its id.
    Request(Value),
    /// A frame as it is (not JSON, or too large): an error without id.
    Text(String),
    /// A binary frame.
    Binary,
}

async fn probe(client: &mut TestClient, probe: &Probe) -> (String, String) {
    match probe {
        Probe::Request(request) => refused(client, request.clone()).await,
        Probe::Text(text) => {
            client.send_text(text.clone()).await;
            text_of(&client.recv_type("error").await)
        }
        Probe::Binary => {
            client.send_binary(vec![1, 2, 3]).await;
            text_of(&client.recv_type("error").await)
        }
    }
}

fn probes() -> Vec<Probe> {
    vec![
        Probe::Request(json!({"type": "join", "code": "AB1"})),
        Probe::Request(json!({"type": "join", "code": "ab1l!"})),
        Probe::Request(json!({"type": "join"})),
        Probe::Request(json!({"type": "join", "cod": "KHPQZ"})),
        Probe::Request(json!({"type": "dance"})),
        Probe::Request(json!({"type": "create", "seats": 5})),
        Probe::Request(json!({"type": "create", "seats": "four"})),
        Probe::Request(json!({"type": "create", "clock": {"initial_s": -5, "increment_s": 0}})),
        Probe::Request(json!({"type": "create", "clock": {"initial_s": 0, "increment_s": 0}})),
        Probe::Request(json!({"type": "create", "stand_in_when_away": true})),
        Probe::Request(json!({"type": "act", "action": {"take": ["red", "red"]}})),
        Probe::Request(json!({"type": "act", "action": {"fly": 1}})),
        Probe::Request(json!({"type": "act", "action": "pass"})),
        Probe::Request(json!({"type": "chat", "text": "anyone?"})),
        Probe::Request(json!({"type": "rematch"})),
        Probe::Request(json!({"type": "ping", "x": 1})),
        Probe::Request(json!({"type": "hello", "name": "again"})),
        Probe::Text("{\"type\":".to_owned()),
        Probe::Text(r#"{"take":["white","blue","red"]}"#.to_owned()),
        Probe::Text(format!(
            r#"{{"type":"chat","text":"{}"}}"#,
            "x".repeat(17 * 1024)
        )),
        Probe::Binary,
    ]
}

#[tokio::test]
async fn welcome_echoes_the_language_and_an_unknown_one_is_invalid_field() {
    let server = TestServer::start().await;
    for (lang, echoed) in [
        (None, "en"),
        (Some("en"), "en"),
        (Some("nl"), "nl"),
        (Some("FR-ca"), "fr"),
        (Some("de_AT"), "de"),
    ] {
        let (_, welcome) = hello(&server, "ann", lang).await;
        assert_eq!(welcome["lang"], echoed, "{lang:?}: {welcome}");
    }

    let mut client = TestClient::connect(&server, "ann").await;
    let (code, message) = refused(
        &mut client,
        json!({"type": "hello", "name": "ann", "lang": "es"}),
    )
    .await;
    assert_eq!(code, "invalid_field");
    assert!(message.contains("en, nl, fr, de"), "{message}");
    assert!(message.contains("\"es\""), "{message}");
    // Not a string at all: the parser's own invalid_field.
    let (code, _) = refused(
        &mut client,
        json!({"type": "hello", "name": "ann", "lang": 5}),
    )
    .await;
    assert_eq!(code, "invalid_field");
    // Nothing was set up: the same connection says hello properly.
    let welcome = client
        .request(json!({"type": "hello", "name": "ann", "lang": "de"}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["lang"], "de");
}

#[tokio::test]
async fn errors_outside_a_game_are_said_in_the_language_with_the_same_codes() {
    let server = TestServer::start().await;
    let probes = probes();
    let mut said: Vec<(Option<&str>, Vec<Said>)> = Vec::new();
    for lang in [None, Some("en"), Some("nl"), Some("fr"), Some("de")] {
        let (mut client, _) = hello(&server, "ann", lang).await;
        let mut errors = Vec::new();
        for p in &probes {
            errors.push(probe(&mut client, p).await);
        }
        said.push((lang, errors));
    }
    let (_, english) = &said[0];
    // No language and English say the same.
    assert_eq!(&said[1].1, english);
    for (lang, errors) in &said[2..] {
        for ((code, message), (english_code, english_message)) in errors.iter().zip(english) {
            assert_eq!(code, english_code, "{lang:?}: {message}");
            assert_ne!(
                message, english_message,
                "{lang:?}: not translated ({code})"
            );
        }
    }

    let by_lang = |lang: &str, i: usize| -> &str {
        let (_, errors) = said.iter().find(|(l, _)| *l == Some(lang)).expect(lang);
        &errors[i].1
    };
    // A malformed room code.
    assert_eq!(
        english[0].1,
        "\"AB1\" is not a room code: it has 3 characters, and a code is five letters from A to Z except I, L and O (like KHPQZ)"
    );
    assert_eq!(
        by_lang("nl", 0),
        "\"AB1\" is geen kamercode: het zijn 3 tekens, en een code bestaat uit vijf letters van A tot Z behalve I, L en O (zoals KHPQZ)"
    );
    assert_eq!(
        by_lang("fr", 1),
        "\"ab1l!\" n'est pas un code de salle : '1', 'l', '!' n'apparaissent jamais dans les codes ; un code est fait de cinq lettres de A à Z sauf I, L et O (comme KHPQZ)"
    );
    // A missing field, an unknown one.
    assert_eq!(english[2].1, "join: missing field `code`");
    assert_eq!(by_lang("nl", 2), "join: veld `code` ontbreekt");
    assert_eq!(by_lang("fr", 2), "join : champ `code` manquant");
    assert_eq!(by_lang("de", 2), "join: Feld `code` fehlt");
    assert_eq!(
        by_lang("de", 3),
        "join: unbekanntes Feld `cod`, erwartet: eines von `code`, `as`"
    );
    // An unknown type: the list of types is protocol, kept as it is.
    assert_eq!(
        by_lang("fr", 4),
        "type de message inconnu \"dance\" ; types connus : hello, create, join, leave, start, add_bot, remove_bot, act, resign, hint, sync, list_rooms, ping, chat, mute, rematch, queue, unqueue, invite, decline, block, unblock, report"
    );
    // A second hello names the session as it is.
    assert_eq!(by_lang("de", 16), "diese Verbindung ist schon \"ann\"");
    assert_eq!(said[4].1[16].0, "already_identified");
}

/// Seats the connections of `names` (with their languages) in a started
/// two-player game; `(players in seat order, their names in seat order)`.
async fn two_player_game(
    server: &TestServer,
    players: [(&str, Option<&str>); 2],
) -> (Vec<TestClient>, String) {
    let (mut host, _) = hello(server, players[0].0, players[0].1).await;
    let (mut guest, _) = hello(server, players[1].0, players[1].1).await;
    let room = host.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().expect("a code").to_owned();
    let joined = guest.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = host.request(json!({"type": "start"})).await;
    assert_eq!(started["status"], "playing", "{started}");
    let host_seat = started["you"]["seat"].as_u64().expect("a seat");
    guest
        .recv_until(|m| m["type"] == "room" && m["status"] == "playing")
        .await;
    let mut seated = vec![host, guest];
    if host_seat == 1 {
        seated.swap(0, 1);
    }
    (seated, code)
}

/// Plays `action` for `seat` and waits until both players saw it.
async fn play(players: &mut [TestClient], seat: usize, action: Value) {
    let reply = players[seat]
        .request(json!({"type": "act", "action": action}))
        .await;
    assert_eq!(reply["type"], "events", "{reply}");
    let other = 1 - seat;
    players[other].recv_type("events").await;
}

#[tokio::test]
async fn rule_errors_are_said_with_the_languages_colour_words_and_keep_code_and_rule() {
    let server = TestServer::start().await;
    for (lang, turn, supply) in [
        (
            "nl",
            "bob is aan de beurt, niet jij",
            "twee nemen: nog maar 2 fiches van kleur blauw over, er zijn er 4 nodig",
        ),
        (
            "fr",
            "c'est au tour de bob, pas au vôtre",
            "prendre 2 jetons de la même couleur : il ne reste que 2 jetons bleu, il en faut au moins 4",
        ),
        (
            "de",
            "bob ist am Zug, nicht du",
            "zwei nehmen: nur noch 2 Chips der Farbe Blau vorhanden, mindestens 4 sind nötig",
        ),
    ] {
        let (mut players, _) = two_player_game(&server, [("ann", Some(lang)), ("bob", None)]).await;
        let state = players[0].state().await;
        players[1].state().await;
        let first = state.to_act.expect("a seat to act") as usize;
        let me = players.iter().position(|p| p.name == "ann").expect("ann");
        let other = 1 - me;
        // Ann out of turn: the player to act is named, in her language.
        if first == me {
            play(&mut players, me, json!({"take_two": "blue"})).await;
        }
        let reply = players[me]
            .request(json!({"type": "act", "action": {"take": ["white", "green", "red"]}}))
            .await;
        assert_eq!(reply["code"], "not_your_turn", "{reply}");
        assert_eq!(reply["rule"], "R11.4", "{reply}");
        assert_eq!(reply["message"], turn, "{reply}");
        // Bob, who said no language, gets English.
        if first == me {
            play(
                &mut players,
                other,
                json!({"take": ["white", "green", "red"]}),
            )
            .await;
        } else {
            let reply = players[other]
                .request(json!({"type": "act", "action": {"noble": 3}}))
                .await;
            assert_eq!(reply["code"], "wrong_phase", "{reply}");
            assert_eq!(
                reply["message"],
                "nothing to decide now: make a main action (take, reserve or buy)"
            );
            play(&mut players, other, json!({"take_two": "blue"})).await;
        }
        // Two blue are left: the colour in the page's word for it.
        let reply = players[me]
            .request(json!({"type": "act", "action": {"take_two": "blue"}}))
            .await;
        assert_eq!(reply["code"], "take_two_supply", "{reply}");
        assert_eq!(reply["rule"], "R5.1", "{reply}");
        assert_eq!(reply["message"], supply, "{reply}");
    }
}

#[tokio::test]
async fn room_errors_of_chat_and_rematch_are_said_in_the_language() {
    let server = TestServer::start().await;
    let (mut players, code) =
        two_player_game(&server, [("ann", Some("nl")), ("bob", Some("de"))]).await;
    let (mut english, _) = hello(&server, "carl", None).await;
    let (mut french, _) = hello(&server, "dora", Some("fr")).await;
    for spectator in [&mut english, &mut french] {
        let room = spectator
            .request(json!({"type": "join", "code": code, "as": "spectator"}))
            .await;
        assert_eq!(room["type"], "room", "{room}");
    }
    let ann = players.iter().position(|p| p.name == "ann").expect("ann");
    let bob = 1 - ann;
    let requests = [
        json!({"type": "chat", "text": "x".repeat(201)}),
        json!({"type": "chat", "text": "   "}),
        json!({"type": "chat", "text": "two\nlines"}),
        json!({"type": "rematch"}),
        json!({"type": "start"}),
        json!({"type": "act", "action": "pass"}),
    ];
    let mut said: Vec<Vec<(String, String)>> = Vec::new();
    for client in [&mut english, &mut players[ann], &mut french] {
        let mut errors = Vec::new();
        for request in &requests {
            errors.push(refused(client, request.clone()).await);
        }
        said.push(errors);
    }
    let mut bob_said = Vec::new();
    for request in &requests[..4] {
        bob_said.push(refused(&mut players[bob], request.clone()).await);
    }
    let [english, dutch, french] = &said[..] else {
        unreachable!()
    };
    assert_eq!(
        english[0],
        (
            "invalid_chat".to_owned(),
            "a chat message has at most 200 characters, this one has 201".to_owned()
        )
    );
    assert_eq!(
        dutch[0].1,
        "een chatbericht heeft hoogstens 200 tekens, dit heeft er 201"
    );
    assert_eq!(
        french[0].1,
        "un message de discussion compte au plus 200 caractères, celui-ci en compte 201"
    );
    assert_eq!(
        bob_said[0].1,
        "eine Chatnachricht hat höchstens 200 Zeichen, diese hat 201"
    );
    assert_eq!(dutch[1].1, "een chatbericht heeft tekst nodig");
    assert_eq!(
        bob_said[2].1,
        "Chat ist einfacher Text in einer Zeile: keine Zeilenumbrüche oder anderen Steuerzeichen"
    );
    assert_eq!(
        english[3].1,
        "a rematch can be offered once the game is over"
    );
    assert_eq!(
        french[3].1,
        "une revanche peut être proposée une fois la partie terminée"
    );
    assert_eq!(
        bob_said[3].1,
        "eine Revanche kann angeboten werden, sobald das Spiel vorbei ist"
    );
    // Spectators: the French one is told in French.
    assert_eq!(english[5].0, "spectator_cannot_act");
    assert_eq!(french[5].1, "les spectateurs ne peuvent pas jouer");
    assert_eq!(
        dutch[4].1,
        "het spel is al begonnen; kom erbij als kijker met \"as\":\"spectator\""
    );
    // The same codes, other words (Ann plays where the spectators watch:
    // her `act` is refused for another reason).
    for (i, (code, message)) in english.iter().enumerate() {
        for other in [dutch, french] {
            if i == 5 && other == dutch {
                continue;
            }
            assert_eq!(&other[i].0, code);
            assert_ne!(&other[i].1, message, "{code}");
        }
    }
}

#[tokio::test]
async fn rematch_errors_after_the_end_are_said_in_the_language() {
    let server = TestServer::start().await;
    let (players, code) =
        two_player_game(&server, [("ann", Some("de")), ("bob", Some("nl"))]).await;
    let (mut spectator, _) = hello(&server, "carl", Some("fr")).await;
    let room = spectator
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    let mut table = Table {
        players,
        spectator,
        code,
        seen: None,
    };
    table.play_to_the_end(0, &mut Dice(7)).await;
    for p in &mut table.players {
        p.recv_type("result").await;
    }
    let (code, message) = refused(&mut table.spectator, json!({"type": "rematch"})).await;
    assert_eq!(code, "rematch_unavailable");
    assert_eq!(
        message,
        "seuls les joueurs peuvent proposer une revanche ; les spectateurs peuvent la suivre"
    );
    // Seat 0 offers, seat 1 accepts: both are moved to the new room, where
    // the game runs; another offer is refused there, in each language.
    let offer = table.players[0].request(json!({"type": "rematch"})).await;
    assert_eq!(offer["type"], "room", "{offer}");
    table.players[1]
        .send_with_id(json!({"type": "rematch"}))
        .await;
    let moved = table.players[1]
        .recv_until(|m| m["type"] == "room" && m["rematch"]["room"].is_string())
        .await;
    let new_code = moved["rematch"]["room"]
        .as_str()
        .expect("a code")
        .to_owned();
    table.players[0]
        .recv_until(|m| m["type"] == "room" && m["code"] == new_code.as_str())
        .await;
    let (code, message) = refused(&mut table.players[0], json!({"type": "rematch"})).await;
    assert_eq!(code, "rematch_unavailable");
    let expected = if table.players[0].name == "ann" {
        "eine Revanche kann angeboten werden, sobald das Spiel vorbei ist"
    } else {
        "een revanche kan aangeboden worden zodra het spel afgelopen is"
    };
    assert_eq!(message, expected);
}

#[tokio::test]
async fn a_failed_hello_still_sets_the_language_of_what_follows() {
    let server = TestServer::start().await;
    let mut client = TestClient::connect(&server, "ann").await;
    // Before any hello: English.
    let (code, message) = refused(&mut client, json!({"type": "create"})).await;
    assert_eq!(code, "not_identified");
    assert_eq!(message, r#"send {"type":"hello","name":...} first"#);
    // A hello that fails is answered in its language, and the language stays.
    let (code, message) = refused(
        &mut client,
        json!({"type": "hello", "name": "  ", "lang": "fr"}),
    )
    .await;
    assert_eq!(code, "invalid_name");
    assert_eq!(message, "le nom est vide");
    let (code, message) = refused(&mut client, json!({"type": "create"})).await;
    assert_eq!(code, "not_identified");
    assert_eq!(message, r#"envoyez d'abord {"type":"hello","name":...}"#);
    let (code, message) = refused(
        &mut client,
        json!({"type": "hello", "token": "0000", "lang": "de"}),
    )
    .await;
    assert_eq!(code, "invalid_token");
    assert_eq!(
        message,
        r#"unbekanntes Sitzungs-Token; sende {"type":"hello","name":...} für eine neue Sitzung"#
    );
    let (code, message) = refused(&mut client, json!({"type": "hello", "lang": "nl"})).await;
    assert_eq!(code, "missing_field");
    assert_eq!(
        message,
        r#"hello: vraagt een "name" (nieuwe sessie) of een "token" (hervatten)"#
    );
    // A hello without a language says English again.
    let (_, message) = refused(&mut client, json!({"type": "hello", "name": ""})).await;
    assert_eq!(message, "the name is empty");
}

#[tokio::test]
async fn the_rate_limit_is_said_in_the_language() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 1,
        message_burst: 2,
        ..Config::default()
    })
    .await;
    let (mut client, _) = hello(&server, "ann", Some("nl")).await;
    client.send(json!({"type": "ping"})).await;
    client.send(json!({"type": "ping"})).await;
    let error = client.recv_type("error").await;
    assert_eq!(error["code"], "rate_limited", "{error}");
    assert_eq!(
        error["message"],
        "te veel berichten: hoogstens 1 per seconde (pieken van 2); dit bericht is niet behandeld, en wie doorgaat zonder te vertragen wordt afgesloten"
    );
}
