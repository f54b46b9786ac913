//! The `splendor-server` binary under another name, for the end-to-end tests
//! that start and kill the real server (see `process.rs`).
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    splendor_server::cli::main()
}
