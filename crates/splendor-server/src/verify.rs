//! `splendor-server verify REPLAY.json [--commitment HEX]`: checks a replay
//! without any server (docs/REPLAYS.md). It reads the file (`-` is standard
//! input), checks the commitment (against the one given, when given), deals
//! the game again from the seed, replays every action through the rules and
//! compares every event and the result.
//!
//! Exit status: 0 when the replay verifies, 1 when a check fails, 2 when the
//! file cannot be read or is not a replay.

use std::io::Read;
use std::path::Path;

use splendor_replay::{Commitment, Replay, Report, VerifyError, verify, verify_with_commitment};

/// The largest replay read, in bytes; a whole game is a few hundred KiB.
pub const MAX_REPLAY_BYTES: u64 = 16 << 20;

/// Why `verify` did not say yes.
#[derive(Debug, thiserror::Error)]
pub enum VerifyFailure {
    /// The file cannot be read.
    #[error("cannot read {path}: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// The text is not a replay document.
    #[error("not a replay: {0}")]
    NotAReplay(String),
    /// The `--commitment` given is not 64 hexadecimal digits.
    #[error("--commitment: {0}")]
    BadCommitment(String),
    /// The replay was read, and a check failed.
    #[error("FAILED ({}): {}", .0.code(), .0)]
    Failed(VerifyError),
}

impl VerifyFailure {
    /// The process exit status for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            VerifyFailure::Failed(_) => 1,
            _ => 2,
        }
    }
}

/// Verifies the replay in `text`; with `commitment`, also checks that it is
/// the commitment the player received at the start of the game.
pub fn verify_text(text: &str, commitment: Option<&str>) -> Result<Report, VerifyFailure> {
    let expected = commitment
        .map(|c| c.trim().to_ascii_lowercase().parse::<Commitment>())
        .transpose()
        .map_err(|e| VerifyFailure::BadCommitment(e.to_string()))?;
    let replay = Replay::from_json(text).map_err(|e| VerifyFailure::NotAReplay(e.to_string()))?;
    match &expected {
        Some(expected) => verify_with_commitment(&replay, expected),
        None => verify(&replay),
    }
    .map_err(VerifyFailure::Failed)
}

/// Reads `path` (`-`: standard input) and verifies it as [`verify_text`] does.
pub fn verify_file(path: &Path, commitment: Option<&str>) -> Result<Report, VerifyFailure> {
    verify_text(&read_replay_text(path)?, commitment)
}

/// The text of the replay file `path` (`-`: standard input), at most
/// [`MAX_REPLAY_BYTES`].
pub fn read_replay_text(path: &Path) -> Result<String, VerifyFailure> {
    let shown = path.display().to_string();
    let unreadable = |reason: String| VerifyFailure::Unreadable {
        path: shown.clone(),
        reason,
    };
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(MAX_REPLAY_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path)
            .and_then(|file| file.take(MAX_REPLAY_BYTES + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| unreadable(e.to_string()))?;
    if bytes.len() as u64 > MAX_REPLAY_BYTES {
        return Err(unreadable(format!(
            "it is larger than {MAX_REPLAY_BYTES} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8 text".into()))
}

/// `splendor-server analyse REPLAY.json`: the analysis of a finished game
/// (issue 26) made from its replay file, without any server: verified
/// first, then judged position by position on this thread. Returns the
/// analysis and how long it took.
pub fn analyse_file(
    path: &Path,
    settings: &splendor_analysis::Settings,
) -> Result<(splendor_analysis::Analysis, std::time::Duration), VerifyFailure> {
    let text = read_replay_text(path)?;
    verify_text(&text, None)?;
    let replay = Replay::from_json(&text).map_err(|e| VerifyFailure::NotAReplay(e.to_string()))?;
    let plan = splendor_analysis::Plan::new(&replay)
        .map_err(|e| VerifyFailure::NotAReplay(e.to_string()))?;
    let started = std::time::Instant::now();
    let analysis = plan.analyse(settings);
    Ok((analysis, started.elapsed()))
}
