//! The `splendor-server` binary under another name, for the end-to-end tests
//! that start and kill the real server (see `process.rs`), which may also
//! fix the rooms' seed.
#![forbid(unsafe_code)]

/// Test-only: a fixed seed of every room's RNG (the arena's
/// `LobbyConfig::room_seed`), so that two servers deal the same game; the
/// public binary has no such setting.
pub const ROOM_SEED_VAR: &str = "SPLENDOR_E2E_ROOM_SEED";

fn main() -> std::process::ExitCode {
    splendor_server::cli::main_with(|config| {
        if let Some(seed) = std::env::var(ROOM_SEED_VAR)
            .ok()
            .and_then(|s| s.parse().ok())
        {
            config.room_seed = Some(seed);
        }
    })
}
