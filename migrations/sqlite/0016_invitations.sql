-- Invitations (issue 25). A player is invited by the public id of their
-- session (`player_id`: ten hex digits of SHA-256 over the session id,
-- names are not unique), so the sessions keep it, indexed; rows from
-- before this migration get it when the store opens. An invitation names
-- the room and the epoch of the room's lease when it was made: a code
-- that a later room reuses has a larger epoch, and the invitation is no
-- longer shown. A session's invitations, sent and received, go with it.
-- Times are Unix ms.
ALTER TABLE sessions ADD COLUMN player_id TEXT;
CREATE INDEX sessions_by_player_id ON sessions (player_id);

CREATE TABLE invitations (
    id            BLOB    NOT NULL PRIMARY KEY,
    room_code     TEXT    NOT NULL,
    room_epoch    INTEGER NOT NULL,
    from_session  BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    from_name     TEXT    NOT NULL,
    to_session    BLOB    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    created_at    INTEGER NOT NULL,
    UNIQUE (to_session, room_code, from_session)
) STRICT;

CREATE INDEX invitations_to ON invitations (to_session, created_at);
CREATE INDEX invitations_from ON invitations (from_session, created_at);
