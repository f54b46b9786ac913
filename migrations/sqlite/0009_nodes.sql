-- The nodes of a cluster (issue 21): one row per node id, claimed by the
-- running process (its instance, a fresh id at every start) for a lease
-- renewed like a room's, so that two processes never run as one node (they
-- would renew each other's room leases). expires_at and started_at are
-- Unix ms by the database's own clock; a clean stop sets expires_at to 0.
CREATE TABLE nodes (
    node_id     INTEGER  NOT NULL PRIMARY KEY,
    instance    TEXT     NOT NULL,
    started_at  BIGINT   NOT NULL,
    expires_at  BIGINT   NOT NULL
);
