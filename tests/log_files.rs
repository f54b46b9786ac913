//! The pretty log format writes plain text when its output is a file or a
//! pipe (issue 12: colour escape codes ended up in log files).

use std::process::Stdio;

use splendor_e2e::{SAFETY_TIMEOUT, TestDatabase};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

#[tokio::test]
async fn pretty_logs_into_a_pipe_have_no_colour_codes() {
    let db = TestDatabase::sqlite();
    let mut child = Command::new(SERVER)
        .args(["--listen", "127.0.0.1:0", "--database-url", &db.url])
        .args(["--log-format", "pretty"])
        .env_remove("NO_COLOR")
        .env_remove("SPLENDOR_LOG_FORMAT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut seen = Vec::new();
    tokio::time::timeout(SAFETY_TIMEOUT, async {
        while let Some(line) = lines.next_line().await.expect("read a log line") {
            let listening = line.contains("listening");
            seen.push(line);
            if listening {
                break;
            }
        }
    })
    .await
    .expect("the server logs that it listens");
    assert!(seen.len() >= 2, "{seen:?}");
    for line in &seen {
        assert!(!line.contains('\u{1b}'), "an escape code in {line:?}");
    }
    child.kill().await.expect("stop the server");
}
