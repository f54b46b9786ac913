-- Blocks (issue 22): a player blocks another (by player_id); quick play
-- never seats the two at one table again, and the blocked one's chat never
-- reaches the blocker. A session's blocks go with it, either way.
CREATE TABLE blocks (
    blocker     BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    blocked     BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (blocker, blocked)
) STRICT;
CREATE INDEX blocks_by_blocked ON blocks (blocked);
