-- Mail (issue 15), fifth part: the daily digest.

-- The hour (0 to 23, in the account's zone) at which an account that chose the digest
-- gets it.
ALTER TABLE mail_options ADD COLUMN digest_hour BIGINT NOT NULL DEFAULT 7;

-- A mail held for its reader's digest: `digest_ms` is when that digest is due (the
-- sender leaves such a row alone); `digest_id` is the digest mail that carried it, set
-- in the transaction that writes the digest, so that each held mail is in one digest.
ALTER TABLE outbox ADD COLUMN digest_ms BIGINT;
ALTER TABLE outbox ADD COLUMN digest_id BIGINT;
CREATE INDEX outbox_held ON outbox (digest_ms) WHERE digest_ms IS NOT NULL AND digest_id IS NULL;
