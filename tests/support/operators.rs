//! A server with the operators' token configured (issue 22), as the tests
//! of the operators' API, its console and reports start it.

use splendor_server::config::{AdminOptions, AdminToken, Config};

use crate::TestServer;

/// The operators' token the tests configure.
pub const TOKEN: &str = "operators-only-0123456789";

/// A server on port 0 with [`TOKEN`] configured and message limits high
/// enough for a test's bursts.
pub async fn with_token() -> TestServer {
    TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        admin: AdminOptions {
            admin_token: Some(AdminToken::new(TOKEN).expect("a token")),
            admin_token_file: None,
        },
        ..Config::default()
    })
    .await
}
