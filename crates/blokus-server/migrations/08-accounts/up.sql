-- Accounts and ratings (docs/accounts.md). Guests keep playing with seat tokens; an
-- account is optional and attaches to the seats it plays.
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    -- The name as its owner spelled it; name_key (lowercase) makes names unique whatever
    -- their case.
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    -- Argon2id PHC string (salt and parameters inside); never the password.
    password_hash TEXT NOT NULL,
    created INTEGER NOT NULL
);
-- Logged-in browsers. Only a SHA-256 hash of the cookie's secret is kept, so a copy of
-- the database does not log anybody in.
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    csrf TEXT NOT NULL,
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL
);
CREATE INDEX sessions_by_account ON sessions(account_id);
-- Which account plays which seat of a game.
CREATE TABLE seat_accounts (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seat_accounts_by_account ON seat_accounts(account_id);
-- Games created as rated. settled is the time their ratings were updated (NULL until
-- then); outcome says whether they counted ('rated') or not ('aborted').
CREATE TABLE rated_games (
    game_id TEXT PRIMARY KEY,
    settled INTEGER,
    outcome TEXT
);
CREATE INDEX rated_games_unsettled ON rated_games(game_id) WHERE settled IS NULL;
-- The current rating of an account in a pool (a variant family, two-player or not).
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    pool TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (account_id, pool)
);
CREATE INDEX ratings_by_pool ON ratings(pool, rating);
-- Every rating change, one row per account and rated game.
CREATE TABLE rating_history (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    game_id TEXT NOT NULL,
    pool TEXT NOT NULL,
    before REAL NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
