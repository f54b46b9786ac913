//! The room core's tests: scripts of inputs at given instants, and the
//! effects they give, written out as text (rust-analyzer's `check`). Every
//! test goes through [`check::check`], so the core's API can change without
//! rewriting them. `UPDATE_EXPECT=1 cargo test -p splendor-room` rewrites
//! the expected text after a deliberate change: read the diff. That the
//! core does no IO is not tested here: having no tokio, sqlx or store among
//! its dependencies, the crate cannot.

mod bots;
mod chat_history;
mod check;
mod clocks;
mod closing;
mod deserted;
mod expiry;
mod hint;
mod invite;
mod membership;
mod parking;
mod play;
mod properties;
mod resign;
mod social;
mod storage;
mod turn_based;
mod whois;
