-- Web Push (issue 25). `server_keys`: keys the server makes once and
-- keeps (the VAPID key pair that signs every push, base64url), written by
-- the first node that starts and read by every node, so all of a
-- cluster's pushes carry one key. `push_subscriptions`: the browsers
-- (PushManager subscriptions) that a session's notices are pushed to, one
-- row per endpoint (a browser's endpoint belongs to the last session that
-- gave it), with the language its notices are worded in. A session's rows
-- go with the session. Times are Unix ms.
CREATE TABLE server_keys (
    name        TEXT    NOT NULL PRIMARY KEY,
    value       TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE push_subscriptions (
    endpoint    TEXT    NOT NULL PRIMARY KEY,
    session_id  BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    p256dh      TEXT    NOT NULL,
    auth        TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX push_subscriptions_by_session ON push_subscriptions (session_id);
