-- Budgets per address (issue 45). `created_from` is the client address a
-- session was made from (the gateway's key: an IPv4 address, or an IPv6
-- /64), so the sessions one address makes in an hour are counted on every
-- node together; NULL for sessions of before and for exempt addresses.
ALTER TABLE sessions ADD COLUMN created_from TEXT;
CREATE INDEX sessions_created_from ON sessions (created_from, created_at);
