-- Clocks of timed games: the JSON of the time control, each player's time left and the
-- running clock (NULL for untimed games), and when the running clock reaches zero
-- (unix ms), so a server finds the games whose time runs out without loading them.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN flag_at INTEGER;
CREATE INDEX games_flag_at ON games(flag_at) WHERE flag_at IS NOT NULL;
-- When the server was last known to run (unix ms): after a restart, running clocks are
-- moved on by the time the server was down.
CREATE TABLE server_alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL
);
