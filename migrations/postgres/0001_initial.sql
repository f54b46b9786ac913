-- The Splendor store, PostgreSQL dialect. SQLite has its own copy in
-- migrations/sqlite/ because the column types differ; keep them in step.
--
-- Times are Unix milliseconds (BIGINT). JSON is kept as TEXT, not JSONB, so
-- that the exact text written is the exact text read back (replays hash it).

-- A player's identity. The bearer token itself is never stored: only its
-- SHA-256, so a copy of the database does not let anyone take over a seat.
CREATE TABLE sessions (
    id          UUID    NOT NULL PRIMARY KEY,
    token_hash  BYTEA   NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

-- One row per game: everything needed to rebuild it from the start, plus the
-- result once it is finished (finished_at and result_json are set together).
CREATE TABLE games (
    id            UUID     NOT NULL PRIMARY KEY,
    room_code     TEXT     NOT NULL,
    players       INTEGER  NOT NULL,
    options_json  TEXT     NOT NULL,
    -- The u64 seed, bit for bit, as a signed 64-bit integer.
    seed          BIGINT   NOT NULL,
    salt          BYTEA    NOT NULL,
    commitment    TEXT     NOT NULL,
    created_at    BIGINT   NOT NULL,
    finished_at   BIGINT,
    result_json   TEXT,
    CHECK ((finished_at IS NULL) = (result_json IS NULL))
);

-- Restoring at start-up reads every unfinished game.
CREATE INDEX games_unfinished ON games (created_at) WHERE finished_at IS NULL;
-- The history lists finished games, most recent first, by (finished_at, id).
CREATE INDEX games_finished ON games (finished_at DESC, id DESC) WHERE finished_at IS NOT NULL;

-- Who sat where. session_id is deliberately not a foreign key: sessions may
-- be pruned one day without rewriting the history of finished games.
CREATE TABLE seats (
    game_id     UUID     NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER  NOT NULL,
    session_id  UUID     NOT NULL,
    name        TEXT     NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- The event log: every accepted action, in order. (game_id, seq) is the
-- primary key, so an action can never be stored twice or overwritten.
CREATE TABLE actions (
    game_id      UUID     NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq          BIGINT   NOT NULL,
    seat         INTEGER  NOT NULL,
    action_json  TEXT     NOT NULL,
    at           BIGINT   NOT NULL,
    PRIMARY KEY (game_id, seq)
);
