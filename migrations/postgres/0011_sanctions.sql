-- Operators' sanctions and their audit (issue 22). A sanction (a ban of a
-- session, a name pattern or an address range) holds from created_at until
-- until_ms (NULL: for good) unless lifted; rows are never deleted. Every
-- operator action and every automatic sanction is a row of audit_log,
-- written in the same transaction as the action; nothing deletes them.
-- Times are Unix ms by the database's own clock.
CREATE TABLE sanctions (
    id          BIGSERIAL PRIMARY KEY,
    kind        TEXT     NOT NULL,
    value       TEXT     NOT NULL,
    until_ms    BIGINT,
    reason      TEXT     NOT NULL,
    created_at  BIGINT   NOT NULL,
    lifted_at   BIGINT
);
CREATE INDEX sanctions_active ON sanctions (lifted_at, until_ms);
CREATE TABLE audit_log (
    id      BIGSERIAL PRIMARY KEY,
    at      BIGINT  NOT NULL,
    actor   TEXT    NOT NULL,
    action  TEXT    NOT NULL,
    target  TEXT    NOT NULL,
    reason  TEXT    NOT NULL
);
