-- PostgreSQL form of up.sql.
ALTER TABLE tournaments ADD COLUMN online BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tournaments ADD COLUMN auto_pair BOOLEAN NOT NULL DEFAULT FALSE;
CREATE TABLE tournament_players (
    token TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    entrant BIGINT NOT NULL
);
CREATE INDEX tournament_players_by_event ON tournament_players(tournament_id, entrant);
CREATE TABLE tournament_games (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    table_no BIGINT NOT NULL,
    UNIQUE (tournament_id, round, table_no)
);
