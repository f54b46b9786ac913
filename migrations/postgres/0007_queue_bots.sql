-- Quick play with built-in bots after a wait (issue 13): when the entry's
-- session asked for it, the time (Unix ms) from which built-in bots fill
-- the seats nobody took; NULL: wait for people only.
ALTER TABLE queue_entries ADD COLUMN bots_at BIGINT;
