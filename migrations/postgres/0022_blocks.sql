-- Blocks (issue 22): a player blocks another (by player_id); quick play
-- never seats the two at one table again, and the blocked one's chat never
-- reaches the blocker. A session's blocks go with it, either way.
CREATE TABLE blocks (
    blocker     UUID    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    blocked     UUID    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_by_blocked ON blocks (blocked);
