//! The limits of a public server, each a small piece with no IO:
//!
//! - [`rate`]: messages per second per connection (a token bucket; each
//!   refusal answered with the wait, up to a bound, then a close);
//! - [`per_ip`]: connections per client address (guards that free their
//!   slot when dropped);
//! - [`connect_rate`]: new connections per client address per minute;
//! - [`heavy`]: the API's heavy answers, per address, range and node;
//! - [`unlimited`]: addresses no per-address budget applies to;
//! - [`origin`]: which web pages may open a WebSocket;
//! - [`name`]: display-name length and characters.
//!
//! The gateway applies them (`ws.rs`); the configuration sets them (`config.rs`).

pub(crate) mod api_rate;
pub mod connect_rate;
pub mod heavy;
pub mod name;
pub mod origin;
pub mod per_ip;
pub mod rate;
pub mod slow_refusal;
pub mod unlimited;
pub mod word_filter;

pub use connect_rate::ConnectRate;
pub use heavy::HeavyAnswers;
pub use name::{NameChars, NamePolicy};
pub use origin::{AllowedOrigin, OriginPolicy, OriginRefused};
pub use per_ip::{IpGuard, IpLimiter};
pub use rate::{MessageRate, TokenBucket, Verdict};
pub use slow_refusal::SlowRefusals;
pub use word_filter::WordFilter;
