-- Which node owns which room (issue 21): one lease row per room code, kept
-- for good so that its epoch (the fencing number) only ever grows. A claim
-- of an expired or released lease takes the next epoch; an append or a new
-- game that names an epoch is refused unless it is the room's current one,
-- in the write's own transaction. expires_at is Unix ms by the database's
-- own clock (0: released).
CREATE TABLE room_leases (
    room_code   TEXT     NOT NULL PRIMARY KEY,
    node_id     INTEGER  NOT NULL,
    epoch       BIGINT   NOT NULL,
    expires_at  BIGINT   NOT NULL
);
-- Listing and renewing a node's leases.
CREATE INDEX room_leases_node ON room_leases (node_id, expires_at);
