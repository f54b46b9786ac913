-- Built-in bots at the table (RULES.md R12, issue 10): a seat held by a
-- bot names its level; its session_id is the bot's own id, which no
-- sessions row has.
ALTER TABLE seats ADD COLUMN bot TEXT;
