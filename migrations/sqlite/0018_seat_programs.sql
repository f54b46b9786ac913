-- A program's seats are marked for everyone (issue 24): `program` is set
-- when a game starts from its session's mark (a session that said
-- "bot":true in hello), so a finished game's list entry and replay say
-- which players were programs, as they were when it was played. Games
-- from before this migration get the mark of their sessions as they are
-- now (the best the data knows: a session is rarely made a program later).
ALTER TABLE seats ADD COLUMN program INTEGER NOT NULL DEFAULT 0;
UPDATE seats SET program = 1
 WHERE bot IS NULL
   AND session_id IN (SELECT id FROM sessions WHERE bot = 1);

-- The room list says how many seats of a waiting room programs hold.
ALTER TABLE open_rooms ADD COLUMN programs INTEGER NOT NULL DEFAULT 0;
