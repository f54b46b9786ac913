//! Several server nodes behind one address (issue 21): a room lives on one
//! node, its owner (under a lease in the database, see splendor-lobby's
//! `StoreDirectory`); a client may connect to any node. This crate carries
//! what crosses nodes, over NATS core pub/sub:
//!
//! - a request of a client whose socket this node holds, to a room another
//!   node owns: a NATS request to `splendor.node.<owner>.call`, answered on
//!   its reply subject ([`RemoteRooms`] for the lobby's `RoomHandle`);
//! - what a room sends a connection another node holds: the room's driver
//!   queues it on a stand-in connection (`Connection::proxy`) as for any
//!   connection, already redacted for that connection's seat; a forwarder
//!   publishes the queue, in order, to `splendor.node.<holder>.deliver`,
//!   and the holder puts each item on the real connection's queue.
//!
//! Redaction stays in the owner's room task: nothing crosses NATS that the
//! receiving connection may not see. Messages are versioned JSON
//! (`splendor_protocol::node`); a node refuses a version it does not know
//! with a log line. The core's types do not cross: their counterparts do
//! (`convert`).

mod convert;
mod holder;
pub mod node;
mod owner;
mod stats;
#[cfg(feature = "testing")]
pub mod testing;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use splendor_lobby::{ConnId, Connection, Lobby, NodeId, RemoteRooms, RoomCode, SessionId};
use tokio::sync::watch;
use tracing::{Instrument, info, info_span, warn};

pub use convert::Unreadable;
pub use stats::ClusterStats;

/// The subject a node serves room calls on.
pub fn call_subject(node: NodeId) -> String {
    format!("splendor.node.{node}.call")
}

/// The subject a node receives deliveries for its connections on.
pub fn deliver_subject(node: NodeId) -> String {
    format!("splendor.node.{node}.deliver")
}

/// The subject every node hears announcements on (rooms taken over).
pub const ALL_SUBJECT: &str = "splendor.nodes.all";

/// How long a stopping node waits for NATS to take its handoff
/// announcement; past it the other nodes find the rooms when their leases
/// run out.
pub const HAND_OFF_ANNOUNCE: Duration = Duration::from_secs(1);

/// What a node's gateway is told when a room moved to another node: the
/// room, and this node's connections that were in it through the old
/// owner (the gateway joins them again where it lives now, and any other
/// connection of its own that waits for that room).
pub type MovedHook = Arc<dyn Fn(RoomCode, Vec<ConnId>) + Send + Sync>;

/// Told that a session's game was formed (or its rematch made) on another
/// node: the session, the new room, how many play, and for a rematch the
/// finished room.
pub type MatchedHook = Arc<dyn Fn(SessionId, splendor_lobby::Match) + Send + Sync>;

/// Told of a sanction another node made.
pub type SanctionedHook = Arc<dyn Fn(crate::node::WireSanction) + Send + Sync>;

/// Told of a message another node has for a session's connections: the
/// session and the message's JSON text.
pub type ToldHook = Arc<dyn Fn(SessionId, String) + Send + Sync>;

/// Why a cluster could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// NATS could not be reached or refused a subscription.
    #[error("NATS: {0}")]
    Nats(String),
}

/// Settings of a node's part in the cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// How long a call to another node's room may take before the caller
    /// is told `room_unavailable`.
    pub call_timeout: Duration,
    /// The queue of a stand-in connection for a socket another node holds.
    pub proxy_queue: usize,
    /// How often the NATS client pings its server when it hears nothing
    /// (issue 44): after three pings unanswered it counts the link lost
    /// (`nats_connected` false, `/readyz` degraded) and connects anew. A
    /// link that goes silent closes nothing, so this is how it is seen.
    pub ping_interval: Duration,
}

impl Default for ClusterConfig {
    fn default() -> ClusterConfig {
        ClusterConfig {
            call_timeout: Duration::from_secs(5),
            proxy_queue: 1024,
            ping_interval: Duration::from_millis(500),
        }
    }
}

/// This node's part in the cluster. Cheap to clone.
#[derive(Clone)]
pub struct Cluster {
    inner: Arc<Inner>,
}

struct Inner {
    nats: async_nats::Client,
    node: NodeId,
    lobby: Lobby,
    config: ClusterConfig,
    /// Connections whose sockets this node holds, in rooms on other nodes,
    /// with the lease they joined under.
    held: Mutex<HashMap<ConnId, (Connection, splendor_lobby::Lease)>>,
    /// Who is told of rooms that moved.
    moved: std::sync::OnceLock<MovedHook>,
    /// This node's rooms with connections other nodes hold: how many.
    remote_members: Mutex<HashMap<RoomCode, usize>>,
    /// Rooms on other nodes known to have closed, by code and epoch.
    closed: Mutex<HashMap<(RoomCode, u64), watch::Sender<bool>>>,
    /// Told when another node handed its rooms off.
    handed_off: Arc<tokio::sync::Notify>,
    /// Who is told of games formed for sessions that wait here.
    matched: std::sync::OnceLock<MatchedHook>,
    /// Who is told of sanctions made on other nodes.
    sanctioned: std::sync::OnceLock<SanctionedHook>,
    /// Who is told of messages for sessions whose connections are here.
    told: std::sync::OnceLock<ToldHook>,
    /// What crossed to and from the other nodes.
    counters: stats::Counters,
    /// The newest stand-in of each connection another node holds in one
    /// of this node's rooms: its number (they count up).
    stand_ins: Mutex<StandIns>,
}

/// The last stand-in number given, and the newest of each connection in
/// each room.
type StandIns = (u64, HashMap<(RoomCode, ConnId), u64>);

impl Cluster {
    /// Connects to NATS at `url`, serves this node's rooms to the others
    /// and its connections' deliveries, and lets `lobby` reach rooms on
    /// other nodes.
    pub async fn start(
        url: &str,
        lobby: Lobby,
        config: ClusterConfig,
    ) -> Result<Cluster, ClusterError> {
        let node = lobby.config().node;
        let (events, mut heard) = tokio::sync::mpsc::unbounded_channel();
        let nats = async_nats::ConnectOptions::new()
            .name(format!("splendor-node-{node}"))
            .ping_interval(config.ping_interval)
            .event_callback(move |event| {
                let events = events.clone();
                async move {
                    let _ = events.send(event);
                }
            })
            .connect(url)
            .await
            .map_err(|e| ClusterError::Nats(e.to_string()))?;
        let cluster = Cluster {
            inner: Arc::new(Inner {
                nats,
                node,
                lobby: lobby.clone(),
                config,
                held: Mutex::new(HashMap::new()),
                moved: std::sync::OnceLock::new(),
                remote_members: Mutex::new(HashMap::new()),
                closed: Mutex::new(HashMap::new()),
                handed_off: Arc::new(tokio::sync::Notify::new()),
                matched: std::sync::OnceLock::new(),
                sanctioned: std::sync::OnceLock::new(),
                told: std::sync::OnceLock::new(),
                counters: stats::Counters::default(),
                stand_ins: Mutex::new((0, HashMap::new())),
            }),
        };
        let calls = cluster.subscribe(call_subject(node)).await?;
        let deliveries = cluster.subscribe(deliver_subject(node)).await?;
        let announcements = cluster.subscribe(ALL_SUBJECT.to_owned()).await?;
        // Both subscriptions exist before any other node can be told of a
        // room here.
        cluster
            .inner
            .nats
            .flush()
            .await
            .map_err(|e| ClusterError::Nats(e.to_string()))?;
        let span = info_span!("cluster", node = %node);
        tokio::spawn(owner::serve(cluster.clone(), calls).instrument(span.clone()));
        tokio::spawn(holder::serve(cluster.clone(), deliveries).instrument(span.clone()));
        tokio::spawn(holder::hear(cluster.clone(), announcements).instrument(span.clone()));
        // Back from a cut: what rooms on other nodes sent this node's
        // connections meanwhile was lost (the owners dropped them as
        // undeliverable), so each joins its room again and gets the state.
        tokio::spawn({
            let cluster = cluster.clone();
            async move {
                let mut cut = false;
                while let Some(event) = heard.recv().await {
                    match event {
                        async_nats::Event::Disconnected => cut = true,
                        async_nats::Event::Connected if cut => {
                            cut = false;
                            cluster.rejoin_held();
                            cluster.announce_reattach().await;
                        }
                        _ => {}
                    }
                }
            }
            .instrument(span)
        });
        lobby.set_remote_rooms(Arc::new(cluster.clone()));
        Ok(cluster)
    }

    async fn subscribe(&self, subject: String) -> Result<async_nats::Subscriber, ClusterError> {
        self.inner
            .nats
            .subscribe(subject)
            .await
            .map_err(|e| ClusterError::Nats(e.to_string()))
    }

    /// This node.
    pub fn node(&self) -> NodeId {
        self.inner.node
    }

    /// Whether NATS is connected now (the client reconnects by itself).
    pub fn nats_connected(&self) -> bool {
        self.inner.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// Whether this node's room `code` has connections other nodes hold:
    /// without NATS its moves could not reach them, so a node cut from
    /// NATS takes no move there (`room_unavailable`) rather than accept
    /// one it cannot deliver.
    pub fn has_remote_members(&self, code: RoomCode) -> bool {
        let members = self
            .inner
            .remote_members
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        members.get(&code).is_some_and(|n| *n > 0)
    }

    /// Counts a stand-in for a connection another node holds, in `code`,
    /// for as long as the returned guard lives.
    fn remote_member(&self, code: RoomCode) -> RemoteMember {
        let mut members = self
            .inner
            .remote_members
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        *members.entry(code).or_default() += 1;
        RemoteMember {
            cluster: self.clone(),
            code,
        }
    }

    /// Every connection of this node in a room on another node joins it
    /// again (through the moved hook), after a cut from NATS.
    fn rejoin_held(&self) {
        let mut by_room: HashMap<RoomCode, Vec<ConnId>> = HashMap::new();
        for (conn, (_, lease)) in self.held().iter() {
            by_room.entry(lease.code).or_default().push(*conn);
        }
        let Some(hook) = self.inner.moved.get() else {
            return;
        };
        info!(
            rooms = by_room.len(),
            "back on NATS: connections join their rooms again"
        );
        for (room, conns) in by_room {
            hook(room, conns);
        }
    }

    /// Tells every node that this node's rooms are reachable again: their
    /// connections on other nodes join them again.
    async fn announce_reattach(&self) {
        for lease in self.inner.lobby.leases() {
            let message = crate::node::ToAll::Reattach {
                room: lease.code.to_string(),
                node: lease.node.0,
                epoch: lease.epoch,
            };
            if let Err(e) = self.tell_all(message).await {
                warn!(room = %lease.code, error = %e, "announcing a room reachable again");
            }
        }
    }

    /// Tells `hook` of every connection of this node in a room that moved.
    pub fn on_moved(&self, hook: MovedHook) {
        let _ = self.inner.moved.set(hook);
    }

    /// A new stand-in of `conn` in `room`: its number, the newest.
    fn newest_stand_in(&self, room: RoomCode, conn: ConnId) -> u64 {
        let mut stand_ins = self
            .inner
            .stand_ins
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        stand_ins.0 += 1;
        let number = stand_ins.0;
        stand_ins.1.insert((room, conn), number);
        number
    }

    /// Stand-in `number` of `conn` in `room` ended: true if it was the
    /// newest (the connection is released), false if a newer one took its
    /// place.
    fn stand_in_ended(&self, room: RoomCode, conn: ConnId, number: u64) -> bool {
        let mut stand_ins = self
            .inner
            .stand_ins
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if stand_ins.1.get(&(room, conn)) == Some(&number) {
            stand_ins.1.remove(&(room, conn));
            true
        } else {
            false
        }
    }

    /// What crossed to and from the other nodes so far.
    pub fn stats(&self) -> ClusterStats {
        self.inner.counters.snapshot()
    }

    /// Tells `hook` of every game formed on another node (announced with
    /// [`Cluster::announce_matched`]); the hook finds the session's waiting
    /// connection on this node, if any.
    pub fn on_matched(&self, hook: MatchedHook) {
        let _ = self.inner.matched.set(hook);
    }

    /// Tells every node that `session`'s game (or rematch) is in `room`:
    /// the node holding the session's waiting connection seats it there.
    pub async fn announce_matched(&self, session: SessionId, found: splendor_lobby::Match) {
        let message = crate::node::ToAll::Matched {
            session: session.0.simple().to_string(),
            room: found.room.to_string(),
            players: found.players,
            rematch_of: found.rematch_of.map(|r| r.to_string()),
        };
        if let Err(e) = self.tell_all(message).await {
            warn!(room = %found.room, error = %e, "announcing a formed game");
        }
    }

    /// Tells `hook` of every message another node has for a session
    /// ([`Cluster::tell_session`]); the hook finds the session's
    /// connections on this node, if any.
    pub fn on_told(&self, hook: ToldHook) {
        let _ = self.inner.told.set(hook);
    }

    /// Tells every node that `session`'s open connections are to get
    /// `message` (a server message's JSON text): the node holding one
    /// sends it. Best effort, like any push: lost while NATS is away.
    pub async fn tell_session(&self, session: SessionId, message: String) {
        let message = crate::node::ToAll::Tell {
            from: self.inner.node.0,
            session: session.0.simple().to_string(),
            message,
        };
        if let Err(e) = self.tell_all(message).await {
            warn!(error = %e, "telling a session on another node");
        }
    }

    /// Tells `hook` of every sanction another node announces.
    pub fn on_sanctioned(&self, hook: SanctionedHook) {
        let _ = self.inner.sanctioned.set(hook);
    }

    /// Tells every node of a sanction just made, and waits (at most
    /// [`HAND_OFF_ANNOUNCE`]) until NATS has it; false when it could not
    /// be told (NATS away): the other nodes then apply it to new `hello`s
    /// only (they read sanctions from the database), not to open
    /// connections.
    pub async fn announce_sanctioned(&self, sanction: crate::node::WireSanction) -> bool {
        if !self.nats_connected() {
            return false;
        }
        let told = async {
            self.tell_all(crate::node::ToAll::Sanctioned(sanction))
                .await
                .map_err(|e| e.to_string())?;
            self.inner.nats.flush().await.map_err(|e| e.to_string())
        };
        match tokio::time::timeout(HAND_OFF_ANNOUNCE, told).await {
            Ok(Ok(())) => true,
            Ok(Err(e)) => {
                warn!(error = %e, "announcing a sanction");
                false
            }
            Err(_) => false,
        }
    }

    /// Notified whenever another node handed its rooms off (they are free
    /// to take over now).
    pub fn handed_off(&self) -> Arc<tokio::sync::Notify> {
        self.inner.handed_off.clone()
    }

    /// Tells every node that this node, stopping, gave `rooms` rooms up;
    /// never waits more than [`HAND_OFF_ANNOUNCE`] (a stopping node must
    /// stop, NATS or not).
    pub async fn announce_handed_off(&self, rooms: usize) {
        let message = crate::node::ToAll::HandedOff {
            node: self.inner.node.0,
            rooms: u32::try_from(rooms).unwrap_or(u32::MAX),
        };
        // Without NATS nobody hears it, and a flush would wait for a
        // reconnection that may never come before the process exits: the
        // rooms' leases simply run out.
        if !self.nats_connected() {
            warn!(
                rooms,
                "NATS is away: the rooms handed off are not announced; other nodes take them over when their leases run out"
            );
            return;
        }
        // Published is not sent: wait until the server has it, briefly.
        let told = async {
            self.tell_all(message).await.map_err(|e| e.to_string())?;
            self.inner.nats.flush().await.map_err(|e| e.to_string())
        };
        match tokio::time::timeout(HAND_OFF_ANNOUNCE, told).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => warn!(error = %e, "announcing the rooms handed off"),
            Err(_) => warn!("announcing the rooms handed off: NATS did not take it in time"),
        }
    }

    /// Tells every node that this node took `room` over under `lease`.
    pub async fn announce_moved(&self, lease: splendor_lobby::Lease) {
        let message = crate::node::ToAll::Moved {
            room: lease.code.to_string(),
            node: lease.node.0,
            epoch: lease.epoch,
        };
        if let Err(e) = self.tell_all(message).await {
            warn!(room = %lease.code, error = %e, "announcing a room taken over");
        }
    }

    /// Publishes `message` to every node (`splendor.nodes.all`).
    async fn tell_all(&self, message: crate::node::ToAll) -> Result<(), async_nats::PublishError> {
        let bytes = crate::node::Envelope::encode(message);
        self.inner
            .nats
            .publish(ALL_SUBJECT.to_owned(), bytes.into())
            .await
    }

    fn held(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<ConnId, (Connection, splendor_lobby::Lease)>> {
        self.inner.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The closed-flag of a room on another node.
    fn closed_flag(&self, code: RoomCode, epoch: u64) -> watch::Receiver<bool> {
        let mut closed = self.inner.closed.lock().unwrap_or_else(|p| p.into_inner());
        closed
            .entry((code, epoch))
            .or_insert_with(|| watch::channel(false).0)
            .subscribe()
    }

    /// Marks a room on another node closed.
    fn mark_closed(&self, code: RoomCode, epoch: u64) {
        let mut closed = self.inner.closed.lock().unwrap_or_else(|p| p.into_inner());
        closed
            .entry((code, epoch))
            .or_insert_with(|| watch::channel(false).0)
            .send_replace(true);
    }
}

/// One stand-in counted in its room (see [`Cluster::has_remote_members`]).
struct RemoteMember {
    cluster: Cluster,
    code: RoomCode,
}

impl Drop for RemoteMember {
    fn drop(&mut self) {
        let mut members = self
            .cluster
            .inner
            .remote_members
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(n) = members.get_mut(&self.code) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                members.remove(&self.code);
            }
        }
    }
}

/// Reads a node message, logging (not misreading) one that is not of this
/// node's version.
fn read<T: for<'de> serde::Deserialize<'de>>(subject: &str, payload: &[u8]) -> Option<T> {
    match crate::node::decode(payload) {
        Ok(message) => Some(message),
        Err(error) => {
            warn!(subject, %error, "refused a node message");
            None
        }
    }
}

/// Drains a subscription, one message at a time, into `handle`.
async fn each_message<F, Fut>(mut subscriber: async_nats::Subscriber, mut handle: F)
where
    F: FnMut(async_nats::Message) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    while let Some(message) = subscriber.next().await {
        handle(message).await;
    }
}

impl splendor_lobby::RemoteWaiters for Cluster {
    fn announce(
        &self,
        session: SessionId,
        found: splendor_lobby::Match,
    ) -> splendor_lobby::session::BoxFuture<'_, ()> {
        Box::pin(self.announce_matched(session, found))
    }
}

impl RemoteRooms for Cluster {
    fn call(
        &self,
        lease: splendor_lobby::Lease,
        caller: splendor_lobby::Caller,
        request: splendor_lobby::Request,
        conn: Option<Connection>,
    ) -> splendor_lobby::session::BoxFuture<
        '_,
        Result<splendor_lobby::Answer, splendor_lobby::RoomError>,
    > {
        Box::pin(holder::call(self, lease, caller, request, conn))
    }

    fn is_closed(&self, lease: splendor_lobby::Lease) -> bool {
        *self.closed_flag(lease.code, lease.epoch).borrow()
    }

    fn closed(&self, lease: splendor_lobby::Lease) -> splendor_lobby::session::BoxFuture<'_, ()> {
        let mut flag = self.closed_flag(lease.code, lease.epoch);
        Box::pin(async move {
            let _ = flag.wait_for(|closed| *closed).await;
        })
    }
}
