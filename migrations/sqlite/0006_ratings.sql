-- Quick play and ratings (issue 13). PostgreSQL has its own copy in
-- migrations/postgres/; keep them in step.

-- A session played by a program (`"bot":true` in hello): rated bots are
-- ranked apart from people. Once set, never cleared.
ALTER TABLE sessions ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;

-- Whether a game counts for the ratings of its seats.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

-- One row per rated session: its Glicko-2 rating after its last rated game.
-- player_id is the session's public id (ten hex digits of a hash of the
-- session id); name and bot are copied from the session at each game, so
-- the row stays readable if the session is ever deleted.
CREATE TABLE ratings (
    session_id   BLOB    NOT NULL PRIMARY KEY,
    player_id    TEXT    NOT NULL UNIQUE,
    name         TEXT    NOT NULL,
    bot          INTEGER NOT NULL,
    rating       REAL    NOT NULL,
    deviation    REAL    NOT NULL,
    volatility   REAL    NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    last_played  INTEGER NOT NULL
) STRICT;
CREATE INDEX ratings_board ON ratings (bot, rating DESC, player_id);
CREATE INDEX ratings_name ON ratings (name);

-- Each rated game's effect on each rated seat, for a player's recent games.
CREATE TABLE rated_results (
    game_id        BLOB    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    session_id     BLOB    NOT NULL,
    seat           INTEGER NOT NULL,
    players        INTEGER NOT NULL,
    place          INTEGER NOT NULL,
    rating_before  REAL    NOT NULL,
    rating_after   REAL    NOT NULL,
    deviation_after REAL   NOT NULL,
    finished_at    INTEGER NOT NULL,
    PRIMARY KEY (game_id, session_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX rated_results_session ON rated_results (session_id, finished_at DESC);

-- The quick-play queues: who waits for a game of how many players. Shared
-- by every server process on the database; emptied when a server starts.
-- away_since: the session's connection dropped then (not matched while
-- away; removed after a while).
CREATE TABLE queue_entries (
    session_id  BLOB    NOT NULL PRIMARY KEY,
    name        TEXT    NOT NULL,
    players     INTEGER NOT NULL,
    queued_at   INTEGER NOT NULL,
    away_since  INTEGER
) STRICT;
CREATE INDEX queue_entries_players ON queue_entries (players, queued_at);
