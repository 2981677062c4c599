-- PostgreSQL form of up.sql.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    organiser_token TEXT NOT NULL,
    event TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
