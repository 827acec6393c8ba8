-- Players' votes for a draw among the surviving powers: the game ends in a draw when
-- every seated survivor has one. Secret: a player reads only their own vote.
CREATE TABLE draw_votes (
    game_id BIGINT NOT NULL REFERENCES games (id),
    power TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, power)
);
