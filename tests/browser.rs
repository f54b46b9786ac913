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

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use splendor_e2e::{ServerProcess, TestDatabase};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::Command;

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

/// The whole suite takes four to six minutes (the harness stops its own run
/// after ten); this only stops a hung run.
const SUITE_LIMIT: Duration = Duration::from_secs(720);

/// The operators' token of the server under test.
const ADMIN_TOKEN: &str = "browser-suite-operators-token";

/// Chromium, unless `SPLENDOR_CHROMIUM` names another.
const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";

/// The npm packages the suite imports (`npm ci --prefix tests/browser`).
const PACKAGES: [&str; 2] = ["playwright-core", "axe-core"];

#[tokio::test]
async fn the_page_plays_a_whole_game_in_chromium_and_passes_axe() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let suite_dir = root.join("tests/browser");
    let chromium = std::env::var("SPLENDOR_CHROMIUM").unwrap_or_else(|_| DEFAULT_CHROMIUM.into());
    check_prerequisites(&suite_dir, &chromium).await;

    let shots = root.join("target/browser-screenshots");
    let db = TestDatabase::sqlite();
    // Analyses (issue 26) think a little per position: a debug build.
    let server = ServerProcess::start_with_env(
        SERVER,
        &db.url,
        &[
            ("SPLENDOR_ANALYSIS_ITERATIONS", "40"),
            // Practice hints think as the strong level does.
            ("SPLENDOR_STRONG_ITERATIONS", "300"),
            // Room links name the host's public address (issue 23).
            ("SPLENDOR_PUBLIC_URL", "https://splendor.example.org"),
            // The operators' console (issue 22).
            ("SPLENDOR_ADMIN_TOKEN", ADMIN_TOKEN),
        ],
    )
    .await;
    let base_url = format!("http://{}", server.addr());

    let mut child = Command::new("node")
        .arg(suite_dir.join("suite.mjs"))
        .arg(&base_url)
        .env("SPLENDOR_CHROMIUM", &chromium)
        .env("SPLENDOR_BROWSER_SCREENSHOTS", &shots)
        .env("SPLENDOR_ADMIN_TOKEN", ADMIN_TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start node");
    let out = tokio::spawn(pass_through(child.stdout.take().expect("piped"), "browser"));
    let err = tokio::spawn(pass_through(
        child.stderr.take().expect("piped"),
        "browser stderr",
    ));
    let status = tokio::time::timeout(SUITE_LIMIT, child.wait())
        .await
        .unwrap_or_else(|_| {
            panic!(
                "the browser suite did not finish within {SUITE_LIMIT:?}; screenshots: {}",
                shots.display()
            )
        })
        .expect("wait for node");
    // The streams end when node exits; their last lines are printed.
    let _ = out.await;
    let _ = err.await;
    server.kill().await;
    assert!(
        status.success(),
        "the browser suite failed ({status}): its output is above; screenshots of every step: {}",
        shots.display()
    );
}

/// Prints every line of `stream` as the suite writes it, after `[tag]`.
async fn pass_through(stream: impl AsyncRead + Unpin, tag: &str) {
    let mut lines = BufReader::new(stream).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        println!("[{tag}] {line}");
    }
}

/// Fails, naming every missing piece and how to install it, unless Node
/// 20 or later, Chromium and the suite's npm packages are all there.
async fn check_prerequisites(suite_dir: &Path, chromium: &str) {
    let mut missing = Vec::new();
    match Command::new("node").arg("--version").output().await {
        Ok(out) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            let major: u32 = version
                .trim_start_matches('v')
                .split('.')
                .next()
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            if major < 20 {
                missing.push(format!(
                    "Node.js 20 or later (found {version}): apt-get install nodejs"
                ));
            }
        }
        _ => missing.push("Node.js 20 or later (`node`): apt-get install nodejs npm".into()),
    }
    if !Path::new(chromium).exists() {
        missing.push(format!(
            "Chromium at {chromium}: apt-get install chromium chromium-driver \
             (or set SPLENDOR_CHROMIUM to a Chromium binary)"
        ));
    }
    let modules: PathBuf = suite_dir.join("node_modules");
    for package in PACKAGES {
        if !modules.join(package).join("package.json").exists() {
            missing.push(format!(
                "the npm package {package} in {}: npm ci --prefix tests/browser",
                modules.display()
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "the browser suite cannot run; install what is missing (.ci/run does):\n  - {}",
        missing.join("\n  - ")
    );
}
