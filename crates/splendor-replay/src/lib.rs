//! Verifiable Splendor replays and fair shuffles.
//!
//! A game is dealt from a secret seed (R2.5). When it starts, every player
//! receives a [`Commitment`], `SHA-256(salt || seed)`; when it ends, the seed
//! and the salt are revealed in its [`Replay`], and anyone can check with
//! [`verify`] that:
//!
//! 1. the revealed seed and salt hash to the commitment (and, with
//!    [`verify_with_commitment`], that this is the commitment the player got
//!    at the start), so the deal was fixed before the first move;
//! 2. the recorded layout is the one the rules deal from that seed;
//! 3. every action is legal when replayed through the rules, and did exactly
//!    what the replay says it did (its events);
//! 4. the game is over at the end, with the recorded result.
//!
//! Map of the crate:
//! - `commit`: [`Seed`], [`Salt`], [`Commitment`], their hexadecimal text
//!   and the exact bytes hashed (see [`commit`] for the shell one-liner);
//! - `replay`: the [`Replay`] document (actions and events in their wire
//!   forms from splendor-protocol), [`Replay::build`] from a game's
//!   log, and [`rebuild`], which plays a log back into a [`Game`](splendor_rules::Game)
//!   (how a server restores a game after a restart);
//! - `verify`: [`verify`], its [`Report`] and its [`VerifyError`], which
//!   names the first check that failed.
//!
//! ```
//! use splendor_replay::{Commitment, GameHeader, LoggedAction, Replay, Salt, SeatName, Seed, verify};
//! use splendor_rules::{Game, Options};
//!
//! // Play a game to its end, logging each action as a server would.
//! let seed = Seed(7);
//! let mut game = Game::new(2, Options::default(), seed.0).unwrap();
//! let (mut log, mut legal) = (Vec::new(), Vec::new());
//! while let Some(seat) = game.to_act() {
//!     game.legal_actions(&mut legal);
//!     let action = legal[log.len() % legal.len()];
//!     game.apply(seat, action).unwrap();
//!     log.push(LoggedAction { seq: log.len() as u32, seat, at: 0, action, by: None });
//! }
//! let header = GameHeader {
//!     game: "g1".into(),
//!     room: "ABCDE".into(),
//!     started_at: 0,
//!     options: Options::default(),
//!     seats: vec![
//!         SeatName { seat: 0, name: "ann".into(), bot: None, program_bot: false },
//!         SeatName { seat: 1, name: "bob".into(), bot: None, program_bot: true },
//!     ],
//!     seed,
//!     salt: Salt([9; 32]),
//!     commitment: Commitment::of(seed, &Salt([9; 32])),
//! };
//! let replay = Replay::build(header, &log, 1).unwrap();
//! let report = verify(&replay).unwrap();
//! assert_eq!(report.actions, log.len());
//!
//! let mut forged = replay.clone();
//! forged.seed = Seed(8);
//! assert_eq!(verify(&forged).unwrap_err().code(), "commitment_mismatch");
//! ```
//!
//! Invariants: no IO, no clock; the rules crate decides everything about
//! the game, this crate only plays it again and compares.
#![forbid(unsafe_code)]

pub mod commit;
mod replay;
mod verify;

pub use commit::{Commitment, HexError, Salt, Seed};
pub use replay::{
    BuildError, By, FORMAT, GameHeader, LogError, LoggedAction, Replay, SeatName, Step, play_log,
    rebuild,
};
pub use verify::{Report, VerifyError, verify, verify_with_commitment};
