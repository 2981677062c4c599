-- PostgreSQL form of up.sql.
CREATE TABLE entrant_accounts (
    tournament_id TEXT NOT NULL,
    entrant BIGINT NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (tournament_id, entrant),
    UNIQUE (tournament_id, account_id)
);
CREATE INDEX entrant_accounts_by_account ON entrant_accounts(account_id);
ALTER TABLE tournaments ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
