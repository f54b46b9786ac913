-- Leases per node, not per room (issue 44): a room claimed by a node of
-- this version names the claiming process (`instance`, its claim in
-- `nodes`) and lives as long as that claim does, with expires_at far in
-- the future until the room is released (0). Renewing is then one row per
-- node (`nodes`), whatever the number of rooms. A row with an empty
-- instance is a lease of a node of before, renewed per room by its
-- expires_at as it was.
ALTER TABLE room_leases ADD COLUMN instance TEXT NOT NULL DEFAULT '';
-- A node's rooms, when it takes stock after its claim lapsed.
CREATE INDEX room_leases_instance ON room_leases (node_id, instance);
