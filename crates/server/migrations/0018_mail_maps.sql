-- Mail (issue 15), fourth part: the map in a results mail.

-- The processed phases whose map a mail shows as a picture, `GAME:SEQ` separated by
-- spaces; NULL for none. The picture is drawn from the stored phase when the mail is
-- sent (the same on every attempt), never stored.
ALTER TABLE outbox ADD COLUMN maps TEXT;
