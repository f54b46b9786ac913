-- Programs' names are unique among programs (issue 24): a bot is found by
-- its name on the bots' leaderboard and in `/api/bots/online`, and a name
-- that two programs share tells their owners nothing. A program's session
-- claims its name here (`name_key`: the name folded to lower case) when it
-- says hello as a bot or renames itself; the primary key makes two claims
-- of one name impossible on every node. Programs marked before this table
-- claim theirs at their next hello (the first to come keeps it; another
-- is asked to choose a name). A forgotten or pruned session frees its name.
CREATE TABLE bot_names (
    name_key    TEXT    NOT NULL PRIMARY KEY,
    session_id  UUID    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    claimed_at  BIGINT  NOT NULL
);
CREATE INDEX bot_names_by_session ON bot_names (session_id);

-- The programs connected now that take challenges (`hello` with
-- `"bot":true,"challenges":true`), for `GET /api/bots/online` on every
-- node: one row per session, naming the node and the connection (a newer
-- connection of the session replaces the row; an older one that ends
-- does not delete it). A node deletes its own rows when it starts; the
-- rows of a node whose claim ran out are not listed.
CREATE TABLE bots_online (
    session_id  UUID    NOT NULL PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    node_id     INTEGER NOT NULL,
    conn        BIGINT  NOT NULL,
    since       BIGINT  NOT NULL
);

-- What the room offered when the invitation was made (seats, rated, clock:
-- the `terms` of a `challenge`, as JSON), so that a program that connects
-- later gets its waiting challenges whole.
ALTER TABLE invitations ADD COLUMN terms TEXT;
