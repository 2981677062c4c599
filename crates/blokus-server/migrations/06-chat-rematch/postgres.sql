-- PostgreSQL form of up.sql.
CREATE TABLE chat (
    game_id TEXT NOT NULL,
    n BIGINT NOT NULL,
    channel TEXT NOT NULL,
    seat BIGINT,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, n)
);
ALTER TABLE games ADD COLUMN rematch TEXT;
