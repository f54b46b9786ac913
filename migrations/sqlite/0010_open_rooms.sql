-- What every open room shows (issue 21): written by its owner whenever its
-- summary changes (players, status), keyed by code and tagged with the
-- owner's lease; a row counts only while that lease is live, so a room
-- whose node died leaves every listing within a lease, whatever its row
-- says. Listings, the per-session and per-address caps and the operators'
-- view read these, on every node alike. Times are Unix ms by the
-- database's own clock.
CREATE TABLE open_rooms (
    room_code   TEXT     NOT NULL PRIMARY KEY,
    node_id     INTEGER  NOT NULL,
    epoch       BIGINT   NOT NULL,
    listed      BOOLEAN  NOT NULL,
    status      TEXT     NOT NULL,
    seats       INTEGER  NOT NULL,
    players     INTEGER  NOT NULL,
    host        TEXT     NOT NULL,
    creator     TEXT,
    client      TEXT,
    updated_at  BIGINT   NOT NULL
);
