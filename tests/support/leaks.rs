//! The hidden-information scan (R6.4 on the wire), shared by the
//! single-node game tests (`tests/games.rs`) and the cluster tests: every
//! frame every client received is checked against what the seats
//! themselves were shown, version by version.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::TestClient;

/// Every card id a frame shows: card objects, the ids in actions, and in a
/// lean state (protocol 2) the bare ids where its cards are.
pub fn card_ids(value: &Value, out: &mut BTreeSet<u64>) {
    if value["lean"] == true {
        lean_card_ids(value, out);
    }
    // A lean connection's events name their cards by bare id (issue 24).
    if value["type"] == "events" {
        for event in value["events"].as_array().into_iter().flatten() {
            out.extend(event["card"].as_u64());
        }
    }
    any_card_ids(value, out);
}

/// The bare card ids of a lean state: face-up cards, purchased cards and
/// reserved cards.
fn lean_card_ids(state: &Value, out: &mut BTreeSet<u64>) {
    let ids = |v: &Value| -> Vec<u64> {
        v.as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default()
    };
    for level in state["levels"].as_array().unwrap() {
        out.extend(ids(&level["cards"]));
    }
    for player in state["players"].as_array().unwrap() {
        out.extend(ids(&player["cards"]));
        for reserved in player["reserved"].as_array().unwrap() {
            out.extend(reserved["card"].as_u64());
        }
    }
}

/// Card objects and the ids in actions, anywhere in a frame.
fn any_card_ids(value: &Value, out: &mut BTreeSet<u64>) {
    match value {
        Value::Object(map) => {
            if map.contains_key("bonus") && map.contains_key("cost") {
                out.insert(map["id"].as_u64().unwrap());
            }
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("buy" | "reserve", Value::Number(n)) => {
                        out.insert(n.as_u64().unwrap());
                    }
                    ("buy", Value::Object(b)) => {
                        out.insert(b["card"].as_u64().unwrap());
                    }
                    _ => any_card_ids(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| any_card_ids(v, out)),
        _ => {}
    }
}

/// The cards a seat's own state shows in its hand as blind reserves.
pub fn own_blind_reserves(state: &Value, seat: usize) -> BTreeSet<u64> {
    state["players"][seat]["reserved"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["from_deck"] == true)
        // A card object, or a lean state's bare id.
        .filter_map(|r| r["card"]["id"].as_u64().or(r["card"].as_u64()))
        .collect()
}

/// Each recorded frame with the state version it was received at.
fn frames_with_versions(frames: &[String]) -> Vec<(Option<u64>, Value)> {
    let mut version = None;
    frames
        .iter()
        .map(|f| {
            let v: Value = serde_json::from_str(f).unwrap();
            if let Some(n) = v.get("version").and_then(Value::as_u64) {
                version = Some(n);
            }
            (version, v)
        })
        .collect()
}

/// R6.4 on the wire: no frame to anyone shows a card that is in a deck at
/// that version, and no frame to anyone but its owner shows a blind reserve
/// still in the owner's hand. `players` in seat order; `watchers` have no
/// seat. Panics on a leak, and when the game had no blind reserve to keep
/// secret (the scan would then prove nothing).
pub fn check_no_leaks(players: &[&TestClient], watchers: &[&TestClient]) {
    let frames = |clients: &[&TestClient]| -> Vec<Vec<String>> {
        clients.iter().map(|c| c.frames.clone()).collect()
    };
    let name = |i: usize| {
        players
            .iter()
            .chain(watchers)
            .nth(i)
            .map_or("?", |c| c.name.as_str())
            .to_owned()
    };
    match check_frames(&frames(players), &frames(watchers)) {
        Ok(seen) => assert!(seen > 0, "the game had no blind reserve to keep secret"),
        Err((i, leak)) => panic!("{}: {leak}", name(i)),
    }
}

/// [`check_no_leaks`] on frames: what the `players` (by seat) and the
/// `watchers` received. Ok with how many blind reserves were kept from
/// others (summed over frames), or the index of the client (players first)
/// that saw too much, and what.
pub fn check_frames(
    players: &[Vec<String>],
    watchers: &[Vec<String>],
) -> Result<usize, (usize, String)> {
    // Per version: every card outside the decks (the union of what the
    // seats see), and each seat's hidden hand.
    let mut outside_decks: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    let mut hidden: BTreeMap<(u64, usize), BTreeSet<u64>> = BTreeMap::new();
    for (seat, frames) in players.iter().enumerate() {
        for (version, frame) in frames_with_versions(frames) {
            if frame["type"] == "state" {
                let v = version.expect("a state has a version");
                card_ids(&frame, outside_decks.entry(v).or_default());
                hidden.insert((v, seat), own_blind_reserves(&frame, seat));
            }
        }
    }
    let mut blind_reserves_seen = 0;
    let none = BTreeSet::new();
    let viewers = (0..players.len())
        .map(Some)
        .chain(watchers.iter().map(|_| None))
        .zip(players.iter().chain(watchers));
    for (i, (viewer, frames)) in viewers.enumerate() {
        for (version, frame) in frames_with_versions(frames) {
            let mut shown = BTreeSet::new();
            card_ids(&frame, &mut shown);
            let Some(v) = version else {
                if !shown.is_empty() {
                    return Err((i, format!("cards before the game: {frame}")));
                }
                continue;
            };
            let public = outside_decks.get(&v).unwrap_or(&none);
            if !shown.is_subset(public) {
                let extra: Vec<_> = shown.difference(public).collect();
                return Err((
                    i,
                    format!("saw deck cards {extra:?} at version {v}: {frame}"),
                ));
            }
            for owner in (0..players.len()).filter(|o| Some(*o) != viewer) {
                let secret = hidden.get(&(v, owner)).unwrap_or(&none);
                blind_reserves_seen += secret.len();
                if !shown.is_disjoint(secret) {
                    return Err((
                        i,
                        format!("saw seat {owner}'s blind reserve at version {v}: {frame}"),
                    ));
                }
            }
        }
    }
    Ok(blind_reserves_seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(version: u64, reserved: Value) -> String {
        serde_json::json!({
            "type": "state", "version": version, "lean": true,
            "levels": [{"cards": [1, 2, 3, 4]}],
            "players": [
                {"cards": [], "reserved": reserved},
                {"cards": [], "reserved": []}
            ]
        })
        .to_string()
    }

    /// The positive control: the scan finds a blind reserve shown to
    /// another seat (and passes the same game without it).
    #[test]
    fn the_scan_catches_a_blind_reserve_shown_to_another_seat() {
        let own = state(1, serde_json::json!([{"from_deck": true, "card": 40}]));
        let hidden = state(1, serde_json::json!([{"from_deck": true}]));
        let leaked = state(1, serde_json::json!([{"from_deck": true, "card": 40}]));
        let scan = |other: &str| {
            let frames = [vec![own.clone()], vec![other.to_owned()]];
            check_frames(&frames[..], &[])
        };
        assert_eq!(scan(&hidden), Ok(1));
        let (who, leak) = scan(&leaked).unwrap_err();
        assert_eq!(who, 1);
        assert!(leak.contains("seat 0's blind reserve"), "{leak}");
        // The same card named by id in a lean connection's events.
        let event = |card: Value| {
            serde_json::json!({
                "type": "events", "room": "ABCDE", "version": 1,
                "events": [{"event": "reserved", "seat": 0, "level": 2,
                            "from_deck": true, "gold": true, "card": card}]
            })
            .to_string()
        };
        let frames = [vec![own.clone()], vec![event(Value::Null), hidden.clone()]];
        assert_eq!(check_frames(&frames[..], &[]), Ok(2));
        let frames = [vec![own.clone()], vec![event(40.into()), hidden]];
        let (who, leak) = check_frames(&frames[..], &[]).unwrap_err();
        assert_eq!(who, 1);
        assert!(leak.contains("seat 0's blind reserve"), "{leak}");
    }
}
