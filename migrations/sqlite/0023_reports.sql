-- Players' reports to the operators (issue 22). A report names the
-- reported session as the room (or the player id) named it, keeps the
-- chat the room held then in report_lines (each line with its author, so
-- that forgetting a player takes their lines), and stays until resolved;
-- resolving records what was done. The reporter's address is kept for the
-- daily cap per address (a session costs nothing to make). No foreign key to sessions: a report
-- outlives the pruning of a quiet session (forget-player deletes it).
CREATE TABLE reports (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    at             INTEGER NOT NULL,
    reporter       BLOB    NOT NULL,
    reporter_name  TEXT    NOT NULL,
    reporter_client TEXT,
    reported       BLOB    NOT NULL,
    reported_name  TEXT    NOT NULL,
    room           TEXT,
    game           TEXT,
    seat           INTEGER,
    line           TEXT,
    reason         TEXT    NOT NULL,
    resolved_at    INTEGER,
    action         TEXT,
    note           TEXT
) STRICT;
CREATE INDEX reports_open ON reports (resolved_at, id);
CREATE INDEX reports_by_reported ON reports (reported);
CREATE INDEX reports_by_reporter ON reports (reporter, at);
CREATE INDEX reports_by_reporter_client ON reports (reporter_client, at);
-- One open report per reporter and reported player, whatever the races.
CREATE UNIQUE INDEX reports_one_open ON reports (reporter, reported) WHERE resolved_at IS NULL;
CREATE TABLE report_lines (
    report   INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    n        INTEGER NOT NULL,
    session  BLOB,
    name     TEXT    NOT NULL,
    seat     INTEGER,
    line     INTEGER NOT NULL,
    text     TEXT    NOT NULL,
    PRIMARY KEY (report, n)
) STRICT;
CREATE INDEX report_lines_by_session ON report_lines (session);
