-- The invitations a session made, kept for the hourly limit only (issue
-- 24): a declined invitation is deleted from `invitations`, and counting
-- those let an inviter go on past the limit by having them declined.
-- Rows older than the hour go when their inviter makes the next one.
CREATE TABLE invitations_made (
    from_session  UUID    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    created_at    BIGINT  NOT NULL
);
CREATE INDEX invitations_made_by ON invitations_made (from_session, created_at);
