-- The analyses of finished games (issue 26): one row per game, made once
-- and kept. A node claims a game's analysis (status 'running', owner: the
-- claiming process, updated_at: its last sign of life) and writes its
-- progress (done of total positions) as it goes; a claim not updated for
-- a while is taken over by whoever asks next; the finished analysis
-- (status 'done', body: its JSON) is never changed again. A game's row
-- goes with its game. Times are Unix ms by the database's own clock.
CREATE TABLE analyses (
    game_id     UUID    NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status      TEXT    NOT NULL CHECK (status IN ('running', 'done')),
    owner       TEXT    NOT NULL,
    done        BIGINT  NOT NULL,
    total       BIGINT  NOT NULL,
    body        TEXT,
    updated_at  BIGINT  NOT NULL,
    CHECK ((status = 'done') = (body IS NOT NULL))
);
