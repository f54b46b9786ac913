-- The bots' ladder (issue 24). A program may name its owner (`hello` with
-- "owner": a secret its author gives all their bots; kept as a digest):
-- quick play never seats two programs of one owner at one table, and caps
-- the rated games one owner's programs, and one address's, play at once.
-- `client` is the address a program last said hello from (the gateway's
-- key: an IPv4 address, or an IPv6 /64). A queue entry keeps its owner for
-- the match, which reads no other table.
ALTER TABLE sessions ADD COLUMN owner TEXT;
ALTER TABLE sessions ADD COLUMN client TEXT;
ALTER TABLE queue_entries ADD COLUMN owner TEXT;
CREATE INDEX sessions_by_owner ON sessions (owner);
CREATE INDEX sessions_by_client ON sessions (client);
