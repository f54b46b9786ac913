//! Running a script of `tests/browser/` (Node.js driving Debian's Chromium)
//! from a Rust test: its prerequisites checked (a missing one fails the
//! test and says how to install it: it never skips), its output passed
//! through line by line, and a hung run stopped.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::Command;

/// Chromium, unless `SPLENDOR_CHROMIUM` names another.
const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";

/// The npm packages the scripts import (`npm ci --prefix tests/browser`).
const PACKAGES: [&str; 2] = ["playwright-core", "axe-core"];

/// The folder of the browser scripts.
pub fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// The Chromium binary the scripts drive.
pub fn chromium() -> String {
    std::env::var("SPLENDOR_CHROMIUM").unwrap_or_else(|_| DEFAULT_CHROMIUM.into())
}

/// Runs `node tests/browser/SCRIPT ARGS...` with `env` (and the Chromium
/// to use), passing its output through as `[tag] line`; fails the test if
/// it does not finish within `limit`. Returns its exit status.
pub async fn run_script(
    script: &str,
    args: &[&str],
    env: &[(&str, &str)],
    limit: Duration,
    tag: &str,
) -> ExitStatus {
    let dir = suite_dir();
    let chromium = chromium();
    check_prerequisites(&dir, &chromium).await;
    let mut child = Command::new("node")
        .arg(dir.join(script))
        .args(args)
        .envs(env.iter().copied())
        .env("SPLENDOR_CHROMIUM", &chromium)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start node");
    let out = tokio::spawn(pass_through(
        child.stdout.take().expect("piped"),
        tag.to_owned(),
    ));
    let err = tokio::spawn(pass_through(
        child.stderr.take().expect("piped"),
        format!("{tag} stderr"),
    ));
    let status = tokio::time::timeout(limit, child.wait())
        .await
        .unwrap_or_else(|_| panic!("{script} did not finish within {limit:?}"))
        .expect("wait for node");
    // The streams end when node exits; their last lines are printed.
    let _ = out.await;
    let _ = err.await;
    status
}

/// Prints every line of `stream` as the script writes it, after `[tag]`.
async fn pass_through(stream: impl AsyncRead + Unpin, tag: String) {
    let mut lines = BufReader::new(stream).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        println!("[{tag}] {line}");
    }
}

/// Fails, naming every missing piece and how to install it, unless Node
/// 20 or later, Chromium and the scripts' npm packages are all there.
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
