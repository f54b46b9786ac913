//! A player that carries on through restarts and failovers, for the
//! cluster tests and the takeover soak (issue 21).

use std::collections::BTreeMap;
use std::net::SocketAddr;

use serde_json::{Value, json};
use splendor_protocol::StateInfo;
use tokio::sync::watch;

use crate::{Dice, TestClient, choose};

/// A player who carries on through a rolling restart: on a closed socket it
/// connects again through the proxy with its token (the page and the kits
/// do the same); a move refused because its room was moving is made again
/// when the state comes again. It makes no move at or past the version
/// `allowed` names, so that the test decides when the game is where.
pub struct Steady {
    /// The connection now (a new one after each reconnect, with every
    /// frame so far).
    pub client: TestClient,
    proxy: SocketAddr,
    dice: Dice,
    /// What this seat was shown at each version (clock readings and
    /// request ids aside): the same version must always show the same.
    pub seen: BTreeMap<u64, Value>,
    /// How many times it connected again.
    pub reconnects: usize,
    /// The close code of each connection that ended under it (`None`:
    /// closed without a close frame), and when.
    pub closes: Vec<(Option<u16>, std::time::Instant)>,
    /// Its moves refused, by error code.
    pub refused: BTreeMap<String, usize>,
    /// The game's commitment, from its states.
    pub commitment: Option<String>,
}

impl Steady {
    /// A player on `client` who reconnects through `proxy`.
    pub fn new(client: TestClient, proxy: SocketAddr, dice: Dice) -> Steady {
        Steady {
            client,
            proxy,
            dice,
            seen: BTreeMap::new(),
            reconnects: 0,
            closes: Vec::new(),
            refused: BTreeMap::new(),
            commitment: None,
        }
    }

    /// Plays until the game's `result` (returned with the player); moves
    /// only below the version `allowed` names; tells `reached` of every
    /// version it is shown.
    pub async fn play(
        mut self,
        mut allowed: watch::Receiver<u64>,
        reached: watch::Sender<u64>,
    ) -> (Steady, Value) {
        let mut turn: Option<StateInfo> = None;
        let mut acted: Option<(u64, Value)> = None;
        let mut retry_at: Option<tokio::time::Instant> = None;
        loop {
            if let Some(state) = &turn
                && state.version < *allowed.borrow()
                && acted.is_none()
                && retry_at.is_none()
            {
                let legal = state.legal_actions.clone().expect("legal actions");
                let action = choose(&legal, &mut self.dice).clone();
                let id = self
                    .client
                    .send_with_id(
                        json!({"type": "act", "action": action, "expect_version": state.version}),
                    )
                    .await;
                acted = Some((state.version, id));
            }
            let frame = tokio::select! {
                frame = self.client.try_recv() => frame,
                _ = allowed.changed() => continue,
                () = async {
                    match retry_at {
                        Some(at) => tokio::time::sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                } => {
                    retry_at = None;
                    continue;
                }
            };
            let message = match frame {
                Ok(message) => message,
                Err(code) => {
                    self.closes.push((code, std::time::Instant::now()));
                    self.reconnect().await;
                    (turn, acted) = (None, None);
                    continue;
                }
            };
            match message["type"].as_str() {
                Some("result") => return (self, message),
                Some("state") => {
                    let state = self.client.full(serde_json::from_value(message).unwrap());
                    self.record(&state);
                    reached.send_if_modified(|v| {
                        let newer = state.version > *v;
                        *v = (*v).max(state.version);
                        newer
                    });
                    if acted.as_ref().is_some_and(|(v, _)| *v != state.version) {
                        acted = None;
                    }
                    retry_at = None;
                    turn = (state.to_act.is_some() && state.to_act == state.you).then_some(state);
                }
                // A refused move (its room was closing or moving): made
                // again, on the state that comes again or after a moment,
                // as the kits do.
                Some("error")
                    if acted
                        .as_ref()
                        .is_some_and(|(_, id)| message.get("id") == Some(id)) =>
                {
                    let code = message["code"].as_str().unwrap_or_default();
                    *self.refused.entry(code.to_owned()).or_default() += 1;
                    assert!(
                        [
                            "room_closed",
                            "room_unavailable",
                            "not_in_room",
                            "internal",
                            "storage_unavailable"
                        ]
                        .contains(&code),
                        "{}: {message}",
                        self.client.name
                    );
                    acted = None;
                    retry_at =
                        Some(tokio::time::Instant::now() + std::time::Duration::from_millis(200));
                }
                _ => {}
            }
        }
    }

    fn record(&mut self, state: &StateInfo) {
        let mut shown = serde_json::to_value(state).unwrap();
        if let Some(map) = shown.as_object_mut() {
            map.remove("clocks");
            map.remove("id");
        }
        self.commitment = Some(state.commitment.clone());
        if let Some(before) = self.seen.insert(state.version, shown.clone()) {
            assert_eq!(
                before, shown,
                "{}: version {} showed two different games",
                self.client.name, state.version
            );
        }
    }

    /// Connects through the proxy again with the session's token, until a
    /// node takes it.
    async fn reconnect(&mut self) {
        let token = self.client.token.clone().expect("a token");
        let name = self.client.name.clone();
        let mut frames = std::mem::take(&mut self.client.frames);
        let deadline = tokio::time::Instant::now() + crate::SAFETY_TIMEOUT;
        let mut pause = std::time::Duration::from_millis(50);
        loop {
            // A node that dies during the handshake or the hello: again,
            // after a short pause, as the page and the kits do.
            if let Ok(mut client) = TestClient::try_connect_to(self.proxy, &name).await {
                client.token = Some(token.clone());
                client.send(json!({"type": "hello", "token": token})).await;
                let welcome = loop {
                    match client.try_recv().await {
                        Ok(m) if m["type"] == "welcome" => break Some(m),
                        // A node that cannot reach its database refuses
                        // the hello (`storage_unavailable`): another try,
                        // as the kits make.
                        Ok(m) if m["type"] == "error" => break None,
                        Ok(_) => {}
                        Err(_) => break None,
                    }
                };
                if welcome.is_some() {
                    frames.append(&mut client.frames);
                    client.frames = frames;
                    self.client = client;
                    self.reconnects += 1;
                    return;
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{name}: could not connect again within {:?}",
                crate::SAFETY_TIMEOUT
            );
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(std::time::Duration::from_secs(1));
        }
    }
}
