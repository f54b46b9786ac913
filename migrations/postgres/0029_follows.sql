-- Follows (issue 50): a player follows another (by player_id) to find
-- them in a friends list. One way: two who follow each other are friends,
-- and only friends see each other online and in which game. Nothing of a
-- follow shows while either of the two blocks the other. A session's
-- follows go with it, either way.
CREATE TABLE follows (
    follower    UUID    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    followed    UUID    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_by_followed ON follows (followed);
