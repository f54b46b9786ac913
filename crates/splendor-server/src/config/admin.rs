//! The operators' token (issue 22). No token, no admin routes at all.

use std::path::PathBuf;

use clap::Args;
use sha2::{Digest, Sha256};

/// The shortest token accepted: a guessable token would open the console
/// to anyone (wrong tokens are rate-limited too).
pub const MIN_ADMIN_TOKEN_LEN: usize = 16;

/// An operator token, kept only as its SHA-256 (never printed).
#[derive(Clone, PartialEq, Eq)]
pub struct AdminToken([u8; 32]);

impl std::fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AdminToken(..)")
    }
}

impl AdminToken {
    /// The token `text` (surrounding white space, such as a file's last
    /// newline, removed), if it is long enough.
    pub fn new(text: &str) -> Result<AdminToken, String> {
        let text = text.trim();
        if text.chars().count() < MIN_ADMIN_TOKEN_LEN {
            return Err(format!(
                "the admin token must be at least {MIN_ADMIN_TOKEN_LEN} characters (for example `openssl rand -hex 32`)"
            ));
        }
        Ok(AdminToken(Sha256::digest(text.as_bytes()).into()))
    }

    /// Whether `presented` is this token, compared in constant time (of
    /// the hashes: the time says nothing about the token).
    pub fn matches(&self, presented: &str) -> bool {
        let other: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let differ = self
            .0
            .iter()
            .zip(other.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        std::hint::black_box(differ) == 0
    }
}

fn parse_token(text: &str) -> Result<AdminToken, String> {
    AdminToken::new(text)
}

/// The operators' settings.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct AdminOptions {
    /// The operators' token: opens `/api/admin/...` (as `Authorization:
    /// Bearer TOKEN`) and the console at /admin. At least 16 characters;
    /// kept only hashed. Without it (or --admin-token-file) there are no
    /// admin routes at all.
    #[arg(long, env = "SPLENDOR_ADMIN_TOKEN", value_parser = parse_token, hide_env_values = true, help_heading = "Operators")]
    pub admin_token: Option<AdminToken>,
    /// A file that holds the operators' token (a Docker or systemd
    /// secret), instead of --admin-token.
    #[arg(long, env = "SPLENDOR_ADMIN_TOKEN_FILE", help_heading = "Operators")]
    pub admin_token_file: Option<PathBuf>,
}

impl AdminOptions {
    /// The token, read from its file if it is given that way.
    pub fn token(&self) -> Result<Option<AdminToken>, String> {
        match (&self.admin_token, &self.admin_token_file) {
            (Some(_), Some(_)) => Err(
                "give the admin token once: --admin-token (SPLENDOR_ADMIN_TOKEN) or --admin-token-file (SPLENDOR_ADMIN_TOKEN_FILE), not both"
                    .into(),
            ),
            (Some(token), None) => Ok(Some(token.clone())),
            (None, Some(path)) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    format!("--admin-token-file {}: {e}", path.display())
                })?;
                AdminToken::new(&text)
                    .map(Some)
                    .map_err(|e| format!("--admin-token-file {}: {e}", path.display()))
            }
            (None, None) => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_matches_itself_only_and_is_never_printed() {
        let token = AdminToken::new("correct horse battery staple\n").unwrap();
        assert!(token.matches("correct horse battery staple"));
        assert!(!token.matches("correct horse battery stapl"));
        assert!(!token.matches(""));
        assert_eq!(format!("{token:?}"), "AdminToken(..)");
        assert!(AdminToken::new("short").is_err());
        assert!(AdminToken::new("   ").is_err());
    }

    #[test]
    fn a_token_comes_from_one_place() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "0123456789abcdef0123\n").unwrap();
        let from_file = AdminOptions {
            admin_token: None,
            admin_token_file: Some(file.clone()),
        };
        assert!(
            from_file
                .token()
                .unwrap()
                .unwrap()
                .matches("0123456789abcdef0123")
        );
        let both = AdminOptions {
            admin_token: Some(AdminToken::new("0123456789abcdef0123").unwrap()),
            admin_token_file: Some(file),
        };
        assert!(both.token().unwrap_err().contains("not both"));
        let missing = AdminOptions {
            admin_token: None,
            admin_token_file: Some(dir.path().join("absent")),
        };
        assert!(missing.token().unwrap_err().contains("absent"));
        assert_eq!(AdminOptions::default().token().unwrap(), None);
    }
}
