-- The schema of the first release, which created its tables without versions. Kept
-- with IF NOT EXISTS so that data folders written before migrations existed (tables
-- present, user_version 0) upgrade through this step unchanged.
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  options TEXT NOT NULL,
  seats TEXT NOT NULL,
  status TEXT NOT NULL,
  plies INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status, updated);
CREATE TABLE IF NOT EXISTS events(
  game_id TEXT NOT NULL,
  ply INTEGER NOT NULL,
  event TEXT NOT NULL,
  PRIMARY KEY(game_id, ply)
);
CREATE TABLE IF NOT EXISTS tokens(
  token TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  seat INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_by_game ON tokens(game_id);
