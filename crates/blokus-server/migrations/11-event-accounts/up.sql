-- Entrants of events who entered from an account (or made one later): the profile lists
-- their events, their tables' seats are played from the account, and the entrant goes by
-- the account's user name. An account enters an event at most once.
CREATE TABLE entrant_accounts (
    tournament_id TEXT NOT NULL,
    entrant INTEGER NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (tournament_id, entrant),
    UNIQUE (tournament_id, account_id)
);
CREATE INDEX entrant_accounts_by_account ON entrant_accounts(account_id);
-- Rated events: every table's game is a rated game (docs/accounts.md).
ALTER TABLE tournaments ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
