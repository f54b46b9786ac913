//! Where the rooms' notices go (issue 25): a turn-based room tells players
//! who are away of their turn, the chat and the end
//! ([`Notice`](crate::room::effect::Notice)); the server's notifier
//! decides, by each player's settings, whether and how to send them (a
//! webhook; Web Push). A room never waits for it.

use splendor_room::RoomCode;
use splendor_room::effect::Notice;

/// Takes the rooms' notices. `notify` must return at once: queue the
/// notice, or drop it when the queue is full; a room never waits for a
/// delivery.
pub trait Notifier: Send + Sync + std::fmt::Debug {
    /// `notice` from room `room`.
    fn notify(&self, room: RoomCode, notice: Notice);
}
