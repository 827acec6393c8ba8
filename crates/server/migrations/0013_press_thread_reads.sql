-- When each account last read each press thread of a game, as the game page shows them
-- (`*all`, `*gm`, or the counterparts' power names joined by commas, as seen by that
-- account): the thread's messages sent up to read_ms are read. press_reads (0012) marks
-- a whole game's press read; a message is read when either mark covers it.
CREATE TABLE press_thread_reads (
    game_id BIGINT NOT NULL,
    account_id BIGINT NOT NULL,
    thread TEXT NOT NULL,
    read_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id, thread)
);
