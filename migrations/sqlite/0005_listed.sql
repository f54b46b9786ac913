-- Whether the room of a game was listed, so that a restored room keeps it
-- (issue 12).
ALTER TABLE games ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;
