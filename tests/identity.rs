//! Identity on every device (issue 23) against the real server: a
//! one-time link carries a session to another device (used once; the
//! expiry is tested in the store, with time passed in), each device keeps
//! its own token and connection (another device does not replace it; the
//! seat follows the device that joins last, the other is told), every
//! token is listed and can be revoked (its connections close, 4007), a
//! stolen token is shut out by its owner from the new device, and a
//! password opens the session on a new device, at most five tries a
//! minute per session and per address. Passkeys are signed up and in by
//! the browser suite (Chromium's virtual authenticator).

use serde_json::{Value, json};
use splendor_e2e::process::http_request;
use splendor_e2e::{TestClient, TestServer};

async fn call(
    server: &TestServer,
    method: &str,
    path: &str,
    token: &str,
    body: Value,
) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let headers: Vec<(&str, &str)> = if token.is_empty() {
        Vec::new()
    } else {
        vec![("Authorization", auth.as_str())]
    };
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, text) = http_request(server.addr(), method, path, &headers, &body).await;
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, value)
}

/// A new connection that says hello with `token`.
async fn device(server: &TestServer, name: &str, token: &str) -> (TestClient, String) {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client.resume(token).await;
    (client, welcome.session)
}

/// Makes a link on the device holding `token` and uses it: the new token.
async fn carry(server: &TestServer, token: &str) -> String {
    let (status, link) = call(server, "POST", "/api/me/devices/link", token, Value::Null).await;
    assert_eq!(status, 200, "{link}");
    let code = link["code"].as_str().unwrap();
    assert_eq!(link["path"], format!("/link#{code}"));
    let (status, signed) = call(
        server,
        "POST",
        "/api/devices/claim",
        "",
        json!({"code": code, "label": "phone"}),
    )
    .await;
    assert_eq!(status, 200, "{signed}");
    signed["token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_link_carries_the_session_once_and_both_devices_stay_connected() {
    let server = TestServer::start().await;
    let mut laptop = TestClient::connect(&server, "ann").await;
    let welcome = laptop.hello().await;
    let first = welcome.token.clone();

    // Bad input: nothing changes.
    let (status, body) = call(&server, "POST", "/api/me/devices/link", "", Value::Null).await;
    assert_eq!(
        (status, &body["error"]),
        (401, &json!("unauthorized")),
        "{body}"
    );
    let (status, body) = call(
        &server,
        "POST",
        "/api/devices/claim",
        "",
        json!({"cod": "x"}),
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (400, &json!("invalid_request")),
        "{body}"
    );
    let (status, body) = call(
        &server,
        "POST",
        "/api/devices/claim",
        "",
        json!({"code": "0".repeat(64)}),
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (404, &json!("link_not_found")),
        "{body}"
    );

    let (status, link) = call(&server, "POST", "/api/me/devices/link", &first, Value::Null).await;
    assert_eq!(status, 200, "{link}");
    let code = link["code"].as_str().unwrap();
    let (status, signed) = call(
        &server,
        "POST",
        "/api/devices/claim",
        "",
        json!({"code": code}),
    )
    .await;
    assert_eq!(status, 200, "{signed}");
    assert_eq!(signed["session"], welcome.session.as_str());
    assert_eq!(signed["name"], "ann");
    assert_eq!(signed["player_id"], welcome.player_id.as_str());
    let phone_token = signed["token"].as_str().unwrap().to_owned();
    assert_ne!(phone_token, first);
    // Used once.
    let (status, again) = call(
        &server,
        "POST",
        "/api/devices/claim",
        "",
        json!({"code": code}),
    )
    .await;
    assert_eq!(
        (status, &again["error"]),
        (404, &json!("link_not_found")),
        "{again}"
    );

    // The phone opens the same session; the laptop stays connected.
    let (mut phone, session) = device(&server, "ann's phone", &phone_token).await;
    assert_eq!(session, welcome.session);
    let listed = laptop.request(json!({"type": "list_rooms"})).await;
    assert_eq!(
        listed["type"], "rooms",
        "the laptop was not thrown out: {listed}"
    );
    let listed = phone.request(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["type"], "rooms", "{listed}");

    // Both devices are listed, each once, this one marked.
    let (status, devices) =
        call(&server, "GET", "/api/me/devices", &phone_token, Value::Null).await;
    assert_eq!(status, 200, "{devices}");
    let list = devices["devices"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{devices}");
    assert_eq!(list[0]["first"], true);
    assert_eq!(list[0]["this_device"], false);
    assert_eq!(list[1]["this_device"], true);
    assert!(list.iter().all(|d| d["connected"] == true), "{devices}");
    assert_eq!(devices["password"], Value::Null);

    // A second connection with the phone's token replaces the phone's
    // first connection only (4001).
    let (mut phone_again, _) = device(&server, "ann's phone again", &phone_token).await;
    let (code, _) = phone.expect_close().await;
    assert_eq!(code, 4001);
    let listed = laptop.request(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["type"], "rooms", "{listed}");
    let listed = phone_again.request(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["type"], "rooms", "{listed}");
}

#[tokio::test]
async fn the_seat_follows_the_device_that_joins_and_the_other_is_told() {
    let server = TestServer::start().await;
    let mut laptop = TestClient::connect(&server, "ann").await;
    let first = laptop.hello().await.token;
    let room = laptop.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = TestClient::join_server(&server, "bob").await;
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");

    // Ann opens the site on her phone: the phone takes her seat (it
    // rejoins the room she is in), the laptop is told and stays open.
    let phone_token = carry(&server, &first).await;
    let (mut phone, _) = device(&server, "ann's phone", &phone_token).await;
    let room_now = phone.recv_type("room").await;
    assert_eq!(room_now["code"], code.as_str(), "{room_now}");
    let told = laptop.recv_type("room_closed").await;
    assert_eq!(told["room"], code.as_str(), "{told}");
    assert!(
        told["reason"].as_str().unwrap().contains("another device"),
        "{told}"
    );
    // The phone plays: it starts the game as the host.
    let started = phone.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    // One room at a time for the session: the laptop cannot open another
    // while the phone sits in this one.
    let refused = laptop.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(refused["code"], "already_in_room", "{refused}");
    // The laptop takes the seat back by joining again; now the phone is told.
    let back = laptop.request(json!({"type": "join", "code": code})).await;
    assert_eq!(back["type"], "room", "{back}");
    let told = phone.recv_type("room_closed").await;
    assert_eq!(told["room"], code.as_str(), "{told}");
    let listed = phone.request(json!({"type": "list_rooms"})).await;
    assert_eq!(
        listed["type"], "rooms",
        "the phone stays connected: {listed}"
    );
    assert_eq!(back["you"]["role"], "player", "{back}");
    let seat = back["you"]["seat"].as_u64().unwrap() as usize;
    assert_eq!(
        back["seats"][seat]["name"], "ann",
        "the laptop holds ann's seat again: {back}"
    );
    // The game goes on for the laptop: its state comes.
    laptop.recv_type("state").await;
}

#[tokio::test]
async fn a_revoked_token_closes_its_connections_and_opens_nothing_more() {
    let server = TestServer::start().await;
    // The owner's laptop token is stolen: the thief connects with it.
    let mut laptop = TestClient::connect(&server, "ann").await;
    let stolen = laptop.hello().await.token;
    // Ann set a password on her laptop, early: her protection.
    let (status, _) = call(
        &server,
        "PUT",
        "/api/me/password",
        &stolen,
        json!({"login": "ann", "password": "ann's password"}),
    )
    .await;
    assert_eq!(status, 200);
    let (mut thief, _) = device(&server, "thief", &stolen).await;
    let (code, _) = laptop.expect_close().await;
    assert_eq!(code, 4001, "the same token: the newer connection replaces");
    // The owner moves to her phone by a link she made before, and from it
    // revokes the laptop's token (older than the phone: with her password).
    let phone_token = carry(&server, &stolen).await;
    let (mut phone, _) = device(&server, "ann's phone", &phone_token).await;
    let (_, devices) = call(&server, "GET", "/api/me/devices", &phone_token, Value::Null).await;
    let laptop_id = devices["devices"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(devices["devices"][0]["first"], true);

    // Bad input: nothing changes.
    let (status, body) = call(
        &server,
        "DELETE",
        "/api/me/devices/00000000deadbeef",
        &phone_token,
        Value::Null,
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (404, &json!("device_not_found")),
        "{body}"
    );
    let (status, _) = call(
        &server,
        "DELETE",
        &format!("/api/me/devices/{laptop_id}"),
        "",
        Value::Null,
    )
    .await;
    assert_eq!(status, 401);
    let mut bob = TestClient::connect(&server, "bob").await;
    let bob_token = bob.hello().await.token;
    let (status, _) = call(
        &server,
        "DELETE",
        &format!("/api/me/devices/{laptop_id}"),
        &bob_token,
        Value::Null,
    )
    .await;
    assert_eq!(status, 404, "another session cannot revoke ann's tokens");

    let (status, body) = call(
        &server,
        "DELETE",
        &format!("/api/me/devices/{laptop_id}"),
        &phone_token,
        json!({"current": "ann's password"}),
    )
    .await;
    assert_eq!(status, 204, "{body}");
    let (code, _) = thief.expect_close().await;
    assert_eq!(code, 4007, "the thief's connection closes");
    let mut again = TestClient::connect(&server, "thief").await;
    let refused = again
        .request(json!({"type": "hello", "token": stolen}))
        .await;
    assert_eq!(refused["code"], "invalid_token", "{refused}");
    let (status, _) = call(&server, "GET", "/api/me/devices", &stolen, Value::Null).await;
    assert_eq!(status, 401);
    // The phone is untouched.
    let listed = phone.request(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["type"], "rooms", "{listed}");
    let (_, devices) = call(&server, "GET", "/api/me/devices", &phone_token, Value::Null).await;
    assert_eq!(devices["devices"].as_array().unwrap().len(), 2, "{devices}");
    assert_ne!(devices["devices"][0]["id"], laptop_id.as_str());
}

#[tokio::test]
async fn a_password_opens_the_session_on_a_new_device_five_tries_a_minute() {
    let server = TestServer::start().await;
    let mut laptop = TestClient::connect(&server, "ann").await;
    let welcome = laptop.hello().await;
    let token = welcome.token.clone();

    // Bad input: nothing changes.
    for (body, error) in [
        (
            json!({"login": "ann", "password": "short"}),
            "weak_password",
        ),
        (
            json!({"login": "a", "password": "long enough"}),
            "invalid_request",
        ),
        (
            json!({"login": "ann<script>", "password": "long enough"}),
            "invalid_request",
        ),
        (json!({"login": "ann"}), "invalid_request"),
    ] {
        let (status, got) = call(&server, "PUT", "/api/me/password", &token, body).await;
        assert_eq!((status, got["error"].as_str()), (400, Some(error)), "{got}");
    }
    let (status, got) = call(
        &server,
        "PUT",
        "/api/me/password",
        "",
        json!({"login": "ann", "password": "long enough"}),
    )
    .await;
    assert_eq!(status, 401, "{got}");

    let (status, got) = call(
        &server,
        "PUT",
        "/api/me/password",
        &token,
        json!({"login": "Ann B", "password": "correct horse"}),
    )
    .await;
    assert_eq!(status, 200, "{got}");
    // Changing it asks for the current one.
    let (status, got) = call(
        &server,
        "PUT",
        "/api/me/password",
        &token,
        json!({"login": "Ann B", "password": "new password"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (400, &json!("invalid_request")),
        "{got}"
    );
    let (status, got) = call(
        &server,
        "PUT",
        "/api/me/password",
        &token,
        json!({"login": "Ann B", "password": "new password", "current": "wrong one"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (401, &json!("wrong_password")),
        "{got}"
    );
    // Another player cannot take the login, whatever its case.
    let mut bob = TestClient::connect(&server, "bob").await;
    let bob_token = bob.hello().await.token;
    let (status, got) = call(
        &server,
        "PUT",
        "/api/me/password",
        &bob_token,
        json!({"login": "ann b", "password": "bobs password"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (409, &json!("login_taken")),
        "{got}"
    );

    // A new device logs in: a token of its own for the same session.
    let (status, signed) = call(
        &server,
        "POST",
        "/api/login",
        "",
        json!({"login": "ANN B", "password": "correct horse"}),
    )
    .await;
    assert_eq!(status, 200, "{signed}");
    assert_eq!(signed["session"], welcome.session.as_str());
    let new_token = signed["token"].as_str().unwrap();
    assert_ne!(new_token, token);
    let (mut phone, session) = device(&server, "ann's phone", new_token).await;
    assert_eq!(session, welcome.session);
    let listed = laptop.request(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["type"], "rooms", "{listed}");
    drop(phone.request(json!({"type": "list_rooms"})).await);

    // Wrong passwords: 401 alike for an unknown login and a wrong password,
    // then 429 with Retry-After once five tries a minute are spent (the
    // session's: one try was spent on the wrong current password above,
    // one on the right login).
    let (status, got) = call(
        &server,
        "POST",
        "/api/login",
        "",
        json!({"login": "nobody", "password": "whatever"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (401, &json!("wrong_login")),
        "{got}"
    );
    let (status, got) = call(
        &server,
        "POST",
        "/api/login",
        "",
        json!({"login": "ann b", "password": "wrong password"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (401, &json!("wrong_login")),
        "{got}"
    );
    let mut limited = None;
    for _ in 0..5 {
        let (status, got) = call(
            &server,
            "POST",
            "/api/login",
            "",
            json!({"login": "ann b", "password": "still wrong"}),
        )
        .await;
        if status == 429 {
            limited = Some(got);
            break;
        }
        assert_eq!(status, 401, "{got}");
    }
    let limited = limited.expect("the sixth try of a minute is refused");
    assert_eq!(limited["error"], "too_many_tries", "{limited}");
    // Now even the right password waits.
    let (status, got) = call(
        &server,
        "POST",
        "/api/login",
        "",
        json!({"login": "ann b", "password": "correct horse"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (429, &json!("too_many_tries")),
        "{got}"
    );
    let (_, devices) = call(&server, "GET", "/api/me/devices", &token, Value::Null).await;
    assert_eq!(
        devices["devices"].as_array().unwrap().len(),
        2,
        "no token was made by a refused try: {devices}"
    );
    assert_eq!(devices["password"]["login"], "Ann B", "{devices}");
}

#[tokio::test]
async fn passkeys_need_a_host_name() {
    let server = TestServer::start().await;
    let mut ann = TestClient::connect(&server, "ann").await;
    let token = ann.hello().await.token;
    // No --public-url and no page at http://localhost: refused, saying why.
    let (status, got) = call(&server, "POST", "/api/me/passkeys", &token, Value::Null).await;
    assert_eq!(
        (status, &got["error"]),
        (400, &json!("passkeys_unavailable")),
        "{got}"
    );
    let (status, got) = call(&server, "POST", "/api/passkeys/login", "", Value::Null).await;
    assert_eq!(
        (status, &got["error"]),
        (400, &json!("passkeys_unavailable")),
        "{got}"
    );
    let (status, got) = call(
        &server,
        "POST",
        "/api/passkeys/login/finish",
        "",
        json!({"ceremony": "x", "credential": {}}),
    )
    .await;
    assert_eq!(status, 400, "{got}");
}

/// Who may sign whom out (issue 23): a device signs out itself and the
/// devices added after it; an older one only with the password, set from
/// a device at least as old as it. A password or passkey belongs to the
/// device that added it and goes with it.
#[tokio::test]
async fn a_stolen_newer_token_cannot_shut_the_owner_out_and_its_credentials_go_with_it() {
    let server = TestServer::start().await;
    let mut laptop = TestClient::connect(&server, "ann").await;
    let first = laptop.hello().await.token;
    let delete = |token: String, device: String, body: Value| {
        let server = &server;
        async move {
            call(
                server,
                "DELETE",
                &format!("/api/me/devices/{device}"),
                &token,
                body,
            )
            .await
        }
    };
    // A thief holds a newer token of Ann's (a link she was tricked into
    // making) and sets a password with it before Ann has one.
    let stolen = carry(&server, &first).await;
    let (status, _) = call(
        &server,
        "PUT",
        "/api/me/password",
        &stolen,
        json!({"login": "thief", "password": "thief's password"}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, devices) = call(&server, "GET", "/api/me/devices", &first, Value::Null).await;
    let laptop_id = devices["devices"][0]["id"].as_str().unwrap().to_owned();
    let thief_id = devices["devices"][1]["id"].as_str().unwrap().to_owned();
    // The thief cannot sign the older laptop out, not even with the
    // password it set itself.
    for body in [Value::Null, json!({"current": "thief's password"})] {
        let (status, got) = delete(stolen.clone(), laptop_id.clone(), body).await;
        assert_eq!(
            (status, &got["error"]),
            (403, &json!("older_device")),
            "{got}"
        );
    }
    // Ann's laptop signs the newer thief out, no password needed; the
    // password the thief set goes with its device.
    let (status, got) = delete(first.clone(), thief_id, Value::Null).await;
    assert_eq!(status, 204, "{got}");
    let (status, got) = call(
        &server,
        "POST",
        "/api/login",
        "",
        json!({"login": "thief", "password": "thief's password"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (401, &json!("wrong_login")),
        "{got}"
    );
    let (_, devices) = call(&server, "GET", "/api/me/devices", &first, Value::Null).await;
    assert_eq!(devices["password"], Value::Null, "{devices}");

    // Ann sets her password on the laptop. Her old token then leaks as it
    // is (the same token on the thief's machine): from a new phone she
    // signs the older laptop's token out with her password.
    let (status, _) = call(
        &server,
        "PUT",
        "/api/me/password",
        &first,
        json!({"login": "ann", "password": "ann's own password"}),
    )
    .await;
    assert_eq!(status, 200);
    let phone = carry(&server, &first).await;
    let (status, got) = delete(phone.clone(), laptop_id.clone(), Value::Null).await;
    assert_eq!(
        (status, &got["error"]),
        (400, &json!("invalid_request")),
        "{got}"
    );
    let (status, got) = delete(
        phone.clone(),
        laptop_id.clone(),
        json!({"current": "a guess"}),
    )
    .await;
    assert_eq!(
        (status, &got["error"]),
        (401, &json!("wrong_password")),
        "{got}"
    );
    let (status, got) = delete(
        phone.clone(),
        laptop_id.clone(),
        json!({"current": "ann's own password"}),
    )
    .await;
    assert_eq!(status, 204, "{got}");
    let (code, _) = laptop.expect_close().await;
    assert_eq!(code, 4007);
    // The password was the laptop's: it went with it. Ann sets one again
    // from the phone; a wrong guess cannot remove it.
    let (_, devices) = call(&server, "GET", "/api/me/devices", &phone, Value::Null).await;
    assert_eq!(devices["password"], Value::Null, "{devices}");
    assert_eq!(devices["devices"].as_array().unwrap().len(), 2, "{devices}");
    let (status, _) = call(
        &server,
        "DELETE",
        "/api/me/password",
        &phone,
        json!({"current": "another guess"}),
    )
    .await;
    assert_eq!(status, 404, "no password to remove");
}
