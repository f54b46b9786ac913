-- Budgets per address (issue 45): `client` is the address the room of a
-- parked game was made from (the gateway's key). A parked game has no
-- room, and still counts in its address's budget of unfinished rooms.
-- NULL for games parked before, and for rooms of no counted address.
ALTER TABLE parked_rooms ADD COLUMN client TEXT;
CREATE INDEX parked_rooms_by_client ON parked_rooms (client);
