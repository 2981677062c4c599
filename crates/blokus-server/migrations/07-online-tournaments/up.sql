-- Online tournaments: whether an event is played in the web app (and pairs its next round
-- by itself when the last game of a round ends), the device tokens of its registered
-- players, and the game of each table. A table's game and its result are written in the
-- same transaction as the game's last move.
ALTER TABLE tournaments ADD COLUMN online INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN auto_pair INTEGER NOT NULL DEFAULT 0;
CREATE TABLE tournament_players (
    token TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    entrant INTEGER NOT NULL
);
CREATE INDEX tournament_players_by_event ON tournament_players(tournament_id, entrant);
CREATE TABLE tournament_games (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    UNIQUE (tournament_id, round, table_no)
);
