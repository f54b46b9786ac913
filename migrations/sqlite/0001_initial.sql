-- The Splendor store, SQLite dialect. PostgreSQL has its own copy in
-- migrations/postgres/ because the column types differ; keep them in step.
--
-- Times are Unix milliseconds. Identifiers are UUIDs stored as 16-byte blobs.
-- Tables are STRICT so that a value of the wrong type is refused, not coerced.

-- A player's identity. The bearer token itself is never stored: only its
-- SHA-256, so a copy of the database does not let anyone take over a seat.
CREATE TABLE sessions (
    id          BLOB    NOT NULL PRIMARY KEY,
    token_hash  BLOB    NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL
) STRICT;

-- One row per game: everything needed to rebuild it from the start, plus the
-- result once it is finished (finished_at and result_json are set together).
CREATE TABLE games (
    id            BLOB    NOT NULL PRIMARY KEY,
    room_code     TEXT    NOT NULL,
    players       INTEGER NOT NULL,
    options_json  TEXT    NOT NULL,
    -- The u64 seed, bit for bit, as a signed 64-bit integer.
    seed          INTEGER NOT NULL,
    salt          BLOB    NOT NULL,
    commitment    TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    result_json   TEXT,
    CHECK ((finished_at IS NULL) = (result_json IS NULL))
) STRICT;

-- Restoring at start-up reads every unfinished game.
CREATE INDEX games_unfinished ON games (created_at) WHERE finished_at IS NULL;
-- The history lists finished games, most recent first, by (finished_at, id).
CREATE INDEX games_finished ON games (finished_at DESC, id DESC) WHERE finished_at IS NOT NULL;

-- Who sat where. session_id is deliberately not a foreign key: sessions may
-- be pruned one day without rewriting the history of finished games.
CREATE TABLE seats (
    game_id     BLOB    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    session_id  BLOB    NOT NULL,
    name        TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;

-- The event log: every accepted action, in order. (game_id, seq) is the
-- primary key, so an action can never be stored twice or overwritten.
CREATE TABLE actions (
    game_id      BLOB    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    action_json  TEXT    NOT NULL,
    at           INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;
