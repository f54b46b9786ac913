-- Quick play keeps people and programs apart (issue 24): each entry waits
-- in a pool, 'people' or 'programs', and games are formed within one
-- pool. A program (a session that said "bot":true) waits among programs;
-- a person waits among people unless they asked to play programs, whose
-- games are then not rated. `program`: the entry's session is a program.
ALTER TABLE queue_entries ADD COLUMN pool TEXT NOT NULL DEFAULT 'people';
ALTER TABLE queue_entries ADD COLUMN program INTEGER NOT NULL DEFAULT 0;
CREATE INDEX queue_entries_pool ON queue_entries (pool, players, queued_at);
