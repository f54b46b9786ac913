-- Quick play and ratings (issue 13). SQLite has its own copy in
-- migrations/sqlite/; keep them in step.

-- A session played by a program (`"bot":true` in hello): rated bots are
-- ranked apart from people. Once set, never cleared.
ALTER TABLE sessions ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;

-- Whether a game counts for the ratings of its seats.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- One row per rated session: its Glicko-2 rating after its last rated game.
-- player_id is the session's public id (ten hex digits of a hash of the
-- session id); name and bot are copied from the session at each game, so
-- the row stays readable if the session is ever deleted.
CREATE TABLE ratings (
    session_id   UUID             NOT NULL PRIMARY KEY,
    player_id    TEXT             NOT NULL UNIQUE,
    name         TEXT             NOT NULL,
    bot          BOOLEAN          NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    games        BIGINT           NOT NULL,
    wins         BIGINT           NOT NULL,
    last_played  BIGINT           NOT NULL
);
CREATE INDEX ratings_board ON ratings (bot, rating DESC, player_id);
CREATE INDEX ratings_name ON ratings (name);

-- Each rated game's effect on each rated seat, for a player's recent games.
CREATE TABLE rated_results (
    game_id         UUID             NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    session_id      UUID             NOT NULL,
    seat            INTEGER          NOT NULL,
    players         INTEGER          NOT NULL,
    place           INTEGER          NOT NULL,
    rating_before   DOUBLE PRECISION NOT NULL,
    rating_after    DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    finished_at     BIGINT           NOT NULL,
    PRIMARY KEY (game_id, session_id)
);
CREATE INDEX rated_results_session ON rated_results (session_id, finished_at DESC);

-- The quick-play queues: who waits for a game of how many players. Shared
-- by every server process on the database; emptied when a server starts.
-- away_since: the session's connection dropped then (not matched while
-- away; removed after a while).
CREATE TABLE queue_entries (
    session_id  UUID    NOT NULL PRIMARY KEY,
    name        TEXT    NOT NULL,
    players     INTEGER NOT NULL,
    queued_at   BIGINT  NOT NULL,
    away_since  BIGINT
);
CREATE INDEX queue_entries_players ON queue_entries (players, queued_at);
