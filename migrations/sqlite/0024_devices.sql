-- Identity on every device (issue 23). A session's first token stays in
-- sessions.token_hash; every other device it was carried to has a token
-- of its own here (its SHA-256 only), each listed and revocable. A device
-- link is shown once on a device that holds the session, and mints one
-- token for another device within ten minutes, once. A person may protect
-- the session with a password (argon2 in PHC form, logged into by a login
-- name unique among passwords) or passkeys (WebAuthn credentials, as the
-- webauthn-rs crate serialises them); a ceremony in progress is kept here
-- so that any node can finish it. Tries at a password are counted per
-- session and per address in fixed one-minute windows. A password and a
-- passkey belong to the device that added them (`set_by`, `added_by`: its
-- token's public id): signing that device out removes them, so a stolen
-- token's credentials go with it. All of a session's rows go with it.
CREATE TABLE device_tokens (
    token_hash  BLOB    PRIMARY KEY,
    session_id  BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    label       TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX device_tokens_by_session ON device_tokens (session_id);

CREATE TABLE device_links (
    code_hash   BLOB    PRIMARY KEY,
    session_id  BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    expires_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX device_links_by_session ON device_links (session_id);

CREATE TABLE passwords (
    session_id  BLOB    PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    login       TEXT    NOT NULL,
    login_key   TEXT    NOT NULL UNIQUE,
    hash        TEXT    NOT NULL,
    set_by      TEXT    NOT NULL,
    set_at      INTEGER NOT NULL
) STRICT;

CREATE TABLE login_attempts (
    key           TEXT    PRIMARY KEY,
    window_start  INTEGER NOT NULL,
    count         INTEGER NOT NULL
) STRICT;

CREATE TABLE passkeys (
    credential_id  BLOB    PRIMARY KEY,
    session_id     BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    passkey        TEXT    NOT NULL,
    added_by       TEXT    NOT NULL,
    created_at     INTEGER NOT NULL
) STRICT;
CREATE INDEX passkeys_by_session ON passkeys (session_id);
CREATE INDEX login_attempts_by_window ON login_attempts (window_start);
CREATE INDEX device_links_by_expiry ON device_links (expires_at);

CREATE TABLE webauthn_ceremonies (
    id          BLOB    PRIMARY KEY,
    session_id  BLOB    REFERENCES sessions (id) ON DELETE CASCADE,
    state       TEXT    NOT NULL,
    expires_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX webauthn_ceremonies_by_expiry ON webauthn_ceremonies (expires_at);
