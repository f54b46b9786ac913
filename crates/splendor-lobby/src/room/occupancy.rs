//! Who is in one room, for the metrics and the cap on tables of bots only.

use std::sync::atomic::{AtomicBool, AtomicUsize};

/// Who is in one room, for the metrics: its driver updates it after every
/// step.
#[derive(Debug, Default)]
pub(crate) struct Occupancy {
    pub(crate) connected: AtomicUsize,
    pub(crate) seated: AtomicUsize,
    pub(crate) bots: AtomicUsize,
    pub(crate) spectators: AtomicUsize,
    /// A start of the room as a table of bots only was let through the
    /// cap and is under way (`BotTableStart`): it counts as running.
    pub(crate) starting: AtomicBool,
}
