-- The player membership a civil-disorder declaration ended (NULL: the power had no
-- player then), so that rolling back past the declaration gives that player the seat back.
ALTER TABLE disorder ADD COLUMN seat_member BIGINT;
