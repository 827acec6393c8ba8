-- Mail (issue 15): the outbox sent in the order it was written.
--
-- Rows due at the same moment (the mails of one processed phase, written in one
-- transaction) are sent in the order they were written, so that a GM reads that the
-- deadline passed without some powers' orders before reading that the phase was
-- processed. Outbox ids are random; this number counts up as rows are written (existing
-- rows get theirs in no particular order). On SQLite the row id does the same.
ALTER TABLE outbox ADD COLUMN queued BIGSERIAL;
DROP INDEX outbox_due;
CREATE INDEX outbox_due ON outbox (due_ms, queued) WHERE sent_ms IS NULL AND failed IS NULL;
