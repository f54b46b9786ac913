-- Turn-based games that wait in the store, not in a room task (issue 25,
-- R12.5): a game whose players are all away and whose turn waits for a
-- person is parked: its room's task ends, its lease is given up, and this
-- row says when the turn's deadline passes (Unix ms). A join, a resume or
-- the sweeper (once the deadline passed) loads it again from its log and
-- deletes the row. `swept_at`: when a running server first saw the
-- deadline passed (so no restart grace is due for it). Parked games are
-- not restored at start and are no one's orphans.
CREATE TABLE parked_rooms (
    room_code   TEXT    NOT NULL PRIMARY KEY,
    game_id     UUID    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deadline_at BIGINT  NOT NULL,
    parked_at   BIGINT  NOT NULL,
    swept_at    BIGINT
);

CREATE INDEX parked_rooms_by_deadline ON parked_rooms (deadline_at);
CREATE INDEX parked_rooms_by_game ON parked_rooms (game_id);
