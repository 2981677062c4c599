-- Several servers on one database (PostgreSQL): the servers with the address their peers
-- reach them at, a secret they share (requests one forwards to another carry it), and
-- which server owns each live game until when (milliseconds of the database's clock),
-- and whether somebody has it open there while it has no move (so every server's lobby
-- keeps listing it).
-- A single SQLite server keeps these tables empty.
CREATE TABLE servers (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    heartbeat BIGINT NOT NULL
);
CREATE TABLE cluster (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE game_leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires BIGINT NOT NULL,
    watched INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX game_leases_by_owner ON game_leases(owner);
