//! The chat of a parked turn-based game (issue 23), in a stored format of
//! its own (never the protocol's `ChatInfo` serde form): the lines its room
//! kept, each with its author's session (forgetting a player takes their
//! lines out by it), given back to the room when the game is loaded again.

use serde::{Deserialize, Serialize};
use splendor_protocol::ChatInfo;

use crate::session::SessionId;

/// One line, as `parked_rooms.chat` keeps it.
#[derive(Serialize, Deserialize)]
struct StoredChatLine {
    /// The author's session id (hyphenated).
    session: String,
    /// The name the line was said under.
    from: String,
    /// The author's seat; none for a spectator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seat: Option<u8>,
    text: String,
    /// The line's number in the room.
    line: u64,
}

/// The JSON text of `lines`, or none when there are none.
pub fn chat_json(lines: &[(SessionId, ChatInfo)]) -> Option<String> {
    if lines.is_empty() {
        return None;
    }
    let stored: Vec<StoredChatLine> = lines
        .iter()
        .map(|(author, l)| StoredChatLine {
            session: author.0.to_string(),
            from: l.from.clone(),
            seat: l.seat,
            text: l.text.clone(),
            line: l.line,
        })
        .collect();
    serde_json::to_string(&stored).ok()
}

/// The lines of [`chat_json`]'s text, for room `room`.
pub fn parse_chat_json(json: &str, room: &str) -> Result<Vec<(SessionId, ChatInfo)>, String> {
    let stored: Vec<StoredChatLine> =
        serde_json::from_str(json).map_err(|e| format!("the parked chat: {e}"))?;
    stored
        .into_iter()
        .map(|l| {
            let session = uuid::Uuid::parse_str(&l.session)
                .map_err(|e| format!("the parked chat's session {:?}: {e}", l.session))?;
            Ok((
                SessionId(session),
                ChatInfo {
                    id: None,
                    room: room.to_owned(),
                    from: l.from,
                    seat: l.seat,
                    text: l.text,
                    line: l.line,
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_lines_are_kept_and_read_back_with_their_authors() {
        let ann = SessionId(uuid::Uuid::from_u128(7));
        let line = ChatInfo {
            id: None,
            room: "ABCDE".into(),
            from: "ann".into(),
            seat: Some(1),
            text: "see you \"tomorrow\"".into(),
            line: 42,
        };
        assert_eq!(chat_json(&[]), None);
        let json = chat_json(&[(ann, line.clone())]).unwrap();
        assert!(json.contains(&ann.0.to_string()), "{json}");
        let back = parse_chat_json(&json, "ABCDE").unwrap();
        assert_eq!(back, vec![(ann, line)]);
        assert!(parse_chat_json("[{\"session\":\"x\"}]", "ABCDE").is_err());
    }
}
