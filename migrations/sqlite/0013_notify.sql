-- Where a session's notices go (issue 25): the events it wants told
-- (your_turn, game_over, chat, a comma list) and a webhook, with the
-- secret its deliveries are signed with (HMAC-SHA256). A session's row
-- goes with the session. Times are Unix ms.
CREATE TABLE notify_settings (
    session_id      BLOB    NOT NULL PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    events          TEXT    NOT NULL,
    webhook_url     TEXT,
    webhook_secret  TEXT,
    updated_at      INTEGER NOT NULL,
    CHECK ((webhook_url IS NULL) = (webhook_secret IS NULL))
) STRICT;
