-- When each account last read a game's press (its game page): messages sent since are
-- its unread ones, counted in the lobby and on the game page.
CREATE TABLE press_reads (
    game_id BIGINT NOT NULL,
    account_id BIGINT NOT NULL,
    read_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
