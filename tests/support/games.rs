//! Games played by the test clients: a seeded dice to choose moves, and
//! tables of several clients that play until the result.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use serde_json::{Value, json};
use splendor_protocol::{StateInfo, WireAction};

use crate::*;

/// A small deterministic random source for choosing moves.
pub struct Dice(pub u64);

impl Dice {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Chooses among the legal actions: a purchase when possible (games end),
/// sometimes a blind reserve (so there is hidden information to leak),
/// otherwise tokens, otherwise anything legal.
pub fn choose<'a>(legal: &'a [WireAction], dice: &mut Dice) -> &'a WireAction {
    let of = |f: fn(&WireAction) -> bool| -> Vec<&'a WireAction> {
        legal.iter().filter(|a| f(a)).collect()
    };
    let buys = of(|a| matches!(a, WireAction::Buy(_)));
    let blind = of(|a| matches!(a, WireAction::ReserveDeck(_)));
    let takes = of(|a| matches!(a, WireAction::Take(_) | WireAction::TakeTwo(_)));
    let pool = if !buys.is_empty() {
        buys
    } else if !blind.is_empty() && dice.below(4) == 0 {
        blind
    } else if !takes.is_empty() {
        takes
    } else {
        legal.iter().collect()
    };
    pool[dice.below(pool.len())]
}

impl TestClient {
    /// Plays this client's seat for `turns` turns of its own (each one's
    /// main action acknowledged: R8's returns and R9's choice of a noble
    /// are parts of a turn, as R13.4 counts), choosing by `dice`, and
    /// returns: a player who then goes away or resigns. Turns alternate,
    /// so two players each playing as many turns never wait for each
    /// other. Another seat's stand-in or a stale version may refuse a move
    /// meanwhile; the game must not end before.
    pub async fn play_turns(&mut self, dice: &mut Dice, turns: usize) {
        let mut acted = None;
        let mut main = false;
        let mut done = 0;
        while done < turns {
            let message = self.recv().await;
            match message["type"].as_str() {
                Some("events") if message.get("id").is_some() => done += usize::from(main),
                Some("error") => {
                    let code = message["code"].as_str().unwrap_or_default();
                    assert!(
                        code == "stale_version" || code == "stand_in_turn",
                        "{}: {message}",
                        self.name
                    );
                }
                Some("state") => {
                    let state: StateInfo = self.full(serde_json::from_value(message).unwrap());
                    if state.to_act.is_some()
                        && state.to_act == state.you
                        && acted != Some(state.version)
                    {
                        acted = Some(state.version);
                        let legal = state.legal_actions.clone().expect("legal actions");
                        let action = choose(&legal, dice).clone();
                        main = !matches!(action, WireAction::Return(_) | WireAction::Noble(_));
                        self.send_with_id(json!({
                            "type": "act", "action": action, "expect_version": state.version
                        }))
                        .await;
                    }
                }
                Some("result") => panic!("{}: the game ended before {turns} turns", self.name),
                _ => {}
            }
        }
    }

    /// Plays this client's seat (legal actions only, on the version it was
    /// shown, chosen by `dice`) until the game's `result` arrives; returns
    /// it. For games against bots, which move by themselves.
    /// The same state may come more than once (a `sync`, a join of the
    /// room the client is in): each version is answered once.
    pub async fn play_until_result(&mut self, dice: &mut Dice) -> Value {
        let mut acted = None;
        loop {
            let message = self.recv().await;
            match message["type"].as_str() {
                Some("result") => return message,
                Some("error") => panic!("{}: {message}", self.name),
                Some("state") => {
                    let state: StateInfo = self.full(serde_json::from_value(message).unwrap());
                    if state.to_act.is_some()
                        && state.to_act == state.you
                        && acted != Some(state.version)
                    {
                        acted = Some(state.version);
                        let legal = state.legal_actions.clone().expect("legal actions");
                        let action = choose(&legal, dice).clone();
                        self.send_with_id(json!({
                            "type": "act", "action": action, "expect_version": state.version
                        }))
                        .await;
                    }
                }
                _ => {}
            }
        }
    }
}

/// The players (index = seat) and a spectator of one started game.
/// Players join in the order of `names`; the host starts with a random seat order.
pub struct Table {
    /// The players, in join order.
    pub players: Vec<TestClient>,
    /// A spectator watching the game.
    pub spectator: TestClient,
    /// The room's code.
    pub code: String,
    /// The states last read (version, players' states, spectator's state),
    /// so that reading the same version again does not wait for a frame
    /// that was already consumed.
    pub seen: Option<(u64, Vec<StateInfo>, StateInfo)>,
}

/// A started game of `names` (the first is the host) with a spectator.
pub async fn open_table(server: &TestServer, names: &[&str]) -> Table {
    open_table_at(server.addr(), names).await
}

/// [`open_table`] on the server at `addr`.
pub async fn open_table_at(addr: SocketAddr, names: &[&str]) -> Table {
    let mut clients = Vec::new();
    for name in names {
        let mut client = TestClient::connect_to(addr, name).await;
        client.hello().await;
        clients.push(client);
    }
    let room = clients[0]
        .request(json!({"type": "create", "seats": names.len()}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    for c in &mut clients[1..] {
        let joined = c.request(json!({"type": "join", "code": code})).await;
        assert_eq!(joined["type"], "room", "{joined}");
    }
    let mut spectator = TestClient::connect_to(addr, "spectator").await;
    spectator.hello().await;
    spectator
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    let started = clients[0].request(json!({"type": "start"})).await;
    assert_eq!(started["status"], "playing", "{started}");
    // Seats are renumbered into turn order at the start.
    let mut by_seat: BTreeMap<u64, TestClient> = BTreeMap::new();
    for (i, mut c) in clients.into_iter().enumerate() {
        // The host's copy answered its start request; the others get theirs pushed.
        let room = if i == 0 {
            started.clone()
        } else {
            c.recv_until(|m| m["type"] == "room" && m["status"] == "playing")
                .await
        };
        let seat = room["you"]["seat"].as_u64().unwrap();
        assert_eq!(room["seats"][seat as usize]["name"], c.name.as_str());
        by_seat.insert(seat, c);
    }
    assert_eq!(by_seat.len(), names.len());
    Table {
        players: by_seat.into_values().collect(),
        spectator,
        code,
        seen: None,
    }
}

impl Table {
    /// Every player's and the spectator's state at `version`.
    pub async fn states_at(&mut self, version: u64) -> (Vec<StateInfo>, StateInfo) {
        if let Some((seen, states, public)) = &self.seen
            && *seen == version
        {
            return (states.clone(), public.clone());
        }
        let mut states = Vec::new();
        for p in &mut self.players {
            states.push(p.state_at(version).await);
        }
        let public = self.spectator.state_at(version).await;
        self.seen = Some((version, states.clone(), public.clone()));
        (states, public)
    }

    /// Plays `moves` actions from `version` (or fewer if the game ends);
    /// returns the new version and everyone's state at it.
    pub async fn play(
        &mut self,
        mut version: u64,
        moves: usize,
        dice: &mut Dice,
    ) -> (u64, Vec<StateInfo>, StateInfo) {
        for _ in 0..moves {
            let (states, _) = self.states_at(version).await;
            let Some(actor) = states[0].to_act else {
                break;
            };
            let legal = states[actor as usize]
                .legal_actions
                .clone()
                .expect("legal actions");
            let action = choose(&legal, dice).clone();
            let reply = self.players[actor as usize]
                .request(json!({"type": "act", "action": action, "expect_version": version}))
                .await;
            assert_eq!(reply["type"], "events", "{reply}");
            version += 1;
        }
        let (states, public) = self.states_at(version).await;
        (version, states, public)
    }

    /// Plays to the end from `version`; returns the final version.
    pub async fn play_to_the_end(&mut self, mut version: u64, dice: &mut Dice) -> u64 {
        loop {
            let (next, states, _) = self.play(version, 1, dice).await;
            if states[0].to_act.is_none() {
                return next;
            }
            assert!(next < 2_000, "the game does not end");
            version = next;
        }
    }
}

/// `events` (an `events` message's list) with every card and noble by its
/// id: a lean connection's live events name them so (issue 24), `history`
/// and verbose connections in full; compare the two through this.
pub fn events_by_id(mut events: Value) -> Value {
    for event in events.as_array_mut().into_iter().flatten() {
        for key in ["card", "noble"] {
            if let Some(id) = event[key].get("id").cloned() {
                event[key] = id;
            }
        }
    }
    events
}
