//! Complete games through real sockets: 2, 3 and 4 players choose among the
//! legal actions the server sends until the result; the result is checked
//! against the rules crate's scoring, and every frame every client received
//! is checked for hidden information (R6.4).

use std::collections::BTreeSet;

use serde_json::{Value, json};
use splendor_e2e::leaks::{card_ids, check_no_leaks, own_blind_reserves};
use splendor_e2e::{Dice, Table, TestClient, TestServer, choose, open_table};
use splendor_protocol::{PhaseName, ServerMessage, StateInfo};
use splendor_rules::{CardId, NobleId};

/// The error for one act, with the card id in its message ("card 17 ...")
/// replaced, so that errors about different ids can be compared. Only the
/// id after "card" is replaced: other numbers in the message (such as
/// "you already hold 3 reserved cards") must stay equal as they are.
async fn probe(client: &mut TestClient, action: Value, card: u64, version: u64) -> Value {
    let reply = client
        .request(json!({"type": "act", "action": action, "expect_version": version}))
        .await;
    assert_eq!(reply["type"], "error", "{reply}");
    let message = reply["message"]
        .as_str()
        .unwrap()
        .replace(&format!("card {card} "), "card # ");
    json!({"code": reply["code"], "rule": reply["rule"], "message": message})
}

/// Seat `actor` asks to buy and to reserve the hidden card of another seat,
/// a card still in a deck, and a card that left the table: all answers are
/// the same error (up to the id), and nothing changes.
async fn probe_hidden_cards(
    table: &mut Table,
    actor: usize,
    hidden_card: u64,
    states: &[Value],
    version: u64,
) {
    let mut outside = BTreeSet::new();
    for s in states {
        card_ids(s, &mut outside);
    }
    let in_deck = (0..90).find(|id| !outside.contains(id)).unwrap();
    let purchased: Vec<u64> = states[actor]["players"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["cards"].as_array().unwrap().iter())
        .filter_map(|c| c["id"].as_u64())
        .collect();
    let client = &mut table.players[actor];
    for kind in ["buy", "reserve"] {
        let expected = probe(client, json!({kind: hidden_card}), hidden_card, version).await;
        if kind == "buy" {
            assert_eq!(expected["code"], "card_not_available", "{expected}");
        }
        let mut others = vec![in_deck];
        others.extend(purchased.first());
        for other in others {
            let answer = probe(client, json!({kind: other}), other, version).await;
            assert_eq!(answer, expected, "probing {kind} {hidden_card} vs {other}");
        }
    }
    // Nothing changed: the state is the one before the probes.
    client.send(json!({"type": "sync"})).await;
    let again = client.state().await;
    let mut before: StateInfo = serde_json::from_value(states[actor].clone()).unwrap();
    before.id = None;
    assert_eq!(again, before);
}

/// Plays the table's game to the end; returns the last state of each
/// player, and the spectator's, and the number of probes made.
async fn play(table: &mut Table, seed: u64) -> (Vec<Value>, Value, usize) {
    let mut dice = Dice(seed);
    let mut version = 0;
    let mut probes = 0;
    loop {
        let mut states = Vec::new();
        for p in &mut table.players {
            let state = p.state_at(version).await;
            states.push(serde_json::to_value(&state).unwrap());
        }
        let public = table.spectator.state_at(version).await;
        assert!(public.legal_actions.is_none() && public.you.is_none());
        let typed: Vec<StateInfo> = states
            .iter()
            .map(|s| serde_json::from_value(s.clone()).unwrap())
            .collect();
        if typed[0].phase == PhaseName::GameOver {
            let public = serde_json::to_value(&public).unwrap();
            return (states, public, probes);
        }
        let actor = typed[0].to_act.unwrap() as usize;
        for (seat, s) in typed.iter().enumerate() {
            assert_eq!(s.you, Some(seat as u8));
            assert_eq!(s.to_act, Some(actor as u8));
            assert_eq!(
                s.legal_actions.is_some(),
                seat == actor,
                "only the actor gets legal actions"
            );
        }
        // Probe with another seat's blind reserve, now and then.
        let hidden = (0..table.players.len())
            .filter(|&s| s != actor)
            .flat_map(|s| own_blind_reserves(&states[s], s))
            .next();
        if let Some(hidden) = hidden
            && typed[actor].phase == PhaseName::Main
            && probes < 6
            && dice.below(3) == 0
        {
            probe_hidden_cards(table, actor, hidden, &states, version).await;
            probes += 1;
        }
        let legal = typed[actor].legal_actions.as_ref().unwrap();
        assert!(!legal.is_empty());
        let action = choose(legal, &mut dice).clone();
        let reply = table.players[actor]
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        assert_eq!(reply["type"], "events", "{action:?} -> {reply}");
        assert_eq!(reply["version"], version + 1);
        version += 1;
        assert!(version < 2_000, "the game does not end");
    }
}

/// The result message against the scoring of R10.3 and R10.4, computed
/// with the rules crate's card and noble data from the final public view.
fn check_result(result: &Value, final_view: &Value, players: usize) {
    let view: StateInfo = serde_json::from_value(final_view.clone()).unwrap();
    let mut score = Vec::new();
    for p in &view.players {
        let cards: u32 = p
            .cards
            .iter()
            .map(|c| splendor_rules::card(CardId(c.id.0)).unwrap().points as u32)
            .sum();
        let nobles: u32 = p
            .nobles
            .iter()
            .map(|n| splendor_rules::noble(NobleId(n.id.0)).unwrap().points as u32)
            .sum();
        assert_eq!(p.points as u32, cards + nobles, "seat {} points", p.seat);
        score.push((cards + nobles, p.cards.len() as u32));
    }
    let ranking = result["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), players);
    let mut previous: Option<(u32, u32)> = None;
    for entry in ranking {
        let seat = entry["seat"].as_u64().unwrap() as usize;
        let (points, cards) = score[seat];
        assert_eq!(entry["points"], points, "{entry}");
        assert_eq!(entry["cards"], cards, "{entry}");
        assert_eq!(entry["name"], view.players[seat].name.as_str());
        // R10.3, R10.4: more points first, then fewer cards; equal share a rank.
        let better = score
            .iter()
            .filter(|&&(p, c)| p > points || (p == points && c < cards))
            .count();
        assert_eq!(entry["rank"], better as u64 + 1, "{entry}");
        if let Some((p, c)) = previous {
            assert!(p > points || (p == points && c <= cards), "ranking order");
        }
        previous = Some((points, cards));
    }
    let winners: Vec<u64> = ranking
        .iter()
        .filter(|e| e["rank"] == 1)
        .map(|e| e["seat"].as_u64().unwrap())
        .collect();
    let mut listed: Vec<u64> = result["winners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect();
    listed.sort();
    let mut expected = winners;
    expected.sort();
    assert_eq!(listed, expected);
    if result["deadlock"] == false {
        assert!(
            score.iter().any(|&(p, _)| p >= 15),
            "R10.1: someone reached 15"
        );
    }
}

async fn full_game(names: &[&str], seed: u64) {
    let server = TestServer::start().await;
    let mut table = open_table(&server, names).await;
    let (_, public, probes) = play(&mut table, seed).await;
    let mut results = Vec::new();
    for c in table.players.iter_mut().chain([&mut table.spectator]) {
        let result = c.recv_type("result").await;
        let room = c.recv_until(|m| m["type"] == "room").await;
        assert_eq!(room["status"], "finished");
        results.push(result);
    }
    assert!(
        results.windows(2).all(|w| w[0] == w[1]),
        "everyone gets the same result"
    );
    check_result(&results[0], &public, names.len());
    check_no_leaks(
        &table.players.iter().collect::<Vec<_>>(),
        &[&table.spectator],
    );
    assert!(probes > 0, "no probe was made");
    // Acting after the end is refused, and nothing changes.
    let reply = table.players[0]
        .request(json!({"type": "act", "action": "pass"}))
        .await;
    assert_eq!(reply["code"], "game_over", "{reply}");
    // Typed parsing of every frame works (the wire contract holds).
    for c in table.players.iter().chain([&table.spectator]) {
        for f in &c.frames {
            serde_json::from_str::<ServerMessage>(f).unwrap_or_else(|e| panic!("{e}: {f}"));
        }
    }
}

#[tokio::test]
async fn two_players_play_a_complete_game() {
    full_game(&["ann", "bob"], 2).await;
}

#[tokio::test]
async fn three_players_play_a_complete_game() {
    full_game(&["ann", "bob", "carl"], 3).await;
}

#[tokio::test]
async fn four_players_play_a_complete_game() {
    full_game(&["ann", "bob", "carl", "dora"], 4).await;
}
