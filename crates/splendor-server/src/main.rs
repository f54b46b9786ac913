//! The `splendor-server` binary; everything it does is in
//! [`splendor_server::cli`], so that the end-to-end tests can build the same
//! binary under another name.
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    splendor_server::cli::main()
}
