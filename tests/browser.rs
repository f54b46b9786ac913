//! The browser test suite (issue 11): the real server binary on port 0 over
//! a fresh SQLite database, and `node tests/browser/suite.mjs` driving
//! Debian's Chromium against the page it serves (two players play a whole
//! game, reload, gold payment, replay pages, rematch; two more meet through
//! quick play, play a rated game and find it on the leaderboard; axe-core
//! on every screen). The suite's output is passed through line by line; its
//! screenshots go to `target/browser-screenshots/`.
//!
//! Without Chromium, Node or the suite's npm packages this test fails and
//! says how to install them: it never skips.

use std::path::Path;
use std::time::Duration;

use splendor_e2e::browser::run_script;
use splendor_e2e::{ServerProcess, TestDatabase};

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

/// The whole suite takes four to six minutes (the harness stops its own run
/// after ten); this only stops a hung run.
const SUITE_LIMIT: Duration = Duration::from_secs(720);

/// The operators' token of the server under test.
const ADMIN_TOKEN: &str = "browser-suite-operators-token";

#[tokio::test]
async fn the_page_plays_a_whole_game_in_chromium_and_passes_axe() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shots = root.join("target/browser-screenshots");
    let db = TestDatabase::sqlite();
    // Analyses (issue 26) think a little per position: a debug build.
    let server = ServerProcess::start_with_env(
        SERVER,
        &db.url,
        &[
            ("SPLENDOR_ANALYSIS_ITERATIONS", "40"),
            // Practice hints think as the strong level does.
            ("SPLENDOR_BOT_MAX_ITERATIONS", "300"),
            // Room links name the host's public address (issue 23).
            ("SPLENDOR_PUBLIC_URL", "https://splendor.example.org"),
            // The operators' console (issue 22).
            ("SPLENDOR_ADMIN_TOKEN", ADMIN_TOKEN),
        ],
    )
    .await;
    let base_url = format!("http://{}", server.addr());
    let status = run_script(
        "suite.mjs",
        &[&base_url],
        &[
            ("SPLENDOR_BROWSER_SCREENSHOTS", &shots.display().to_string()),
            ("SPLENDOR_ADMIN_TOKEN", ADMIN_TOKEN),
        ],
        SUITE_LIMIT,
        "browser",
    )
    .await;
    server.kill().await;
    assert!(
        status.success(),
        "the browser suite failed ({status}): its output is above; screenshots of every step: {}",
        shots.display()
    );
}
