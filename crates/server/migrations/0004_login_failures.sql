-- Failed logins, kept in the database so that every server sharing it throttles the
-- same attempts. Rows older than the throttle's window are deleted as new ones arrive.
CREATE TABLE login_failures (
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX login_failures_by_key ON login_failures (name, address, at_ms);
