-- The chat of a parked turn-based game (issue 23): the lines its room kept
-- (at most 50, oldest first), as a JSON array of {session, from, seat,
-- text, line}, given back to the room when the game is loaded again.
-- Deleted with the row; forgetting a player takes their lines out.
ALTER TABLE parked_rooms ADD COLUMN chat TEXT;
