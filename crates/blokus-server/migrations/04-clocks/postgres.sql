-- PostgreSQL form of up.sql.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN flag_at BIGINT;
CREATE INDEX games_flag_at ON games(flag_at) WHERE flag_at IS NOT NULL;
CREATE TABLE server_alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at BIGINT NOT NULL
);
