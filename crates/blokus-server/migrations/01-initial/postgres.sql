-- PostgreSQL form of up.sql: the same tables, columns and indexes.
CREATE TABLE IF NOT EXISTS games(
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  options TEXT NOT NULL,
  seats TEXT NOT NULL,
  status TEXT NOT NULL,
  plies BIGINT NOT NULL DEFAULT 0,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_status ON games(status, updated);
CREATE TABLE IF NOT EXISTS events(
  game_id TEXT NOT NULL,
  ply BIGINT NOT NULL,
  event TEXT NOT NULL,
  PRIMARY KEY(game_id, ply)
);
CREATE TABLE IF NOT EXISTS tokens(
  token TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  seat BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS tokens_by_game ON tokens(game_id);
