-- Sessions have a lifetime (issue 12): when a session was last seen (a
-- resume, or connected when the pruning task ran); NULL means its creation.
ALTER TABLE sessions ADD COLUMN last_seen INTEGER;
CREATE INDEX sessions_last_seen ON sessions (COALESCE(last_seen, created_at));
-- The pruning task asks whether a session holds or held a seat.
CREATE INDEX seats_session ON seats (session_id);
