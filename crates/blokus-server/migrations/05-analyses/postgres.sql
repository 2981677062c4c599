-- PostgreSQL form of up.sql.
CREATE TABLE analyses (
    game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    simulations BIGINT NOT NULL,
    positions   BIGINT NOT NULL,
    done        BIGINT NOT NULL DEFAULT 0,
    evals       TEXT NOT NULL DEFAULT '[]',
    requested   BIGINT NOT NULL,
    updated     BIGINT NOT NULL
);
CREATE INDEX analyses_unfinished ON analyses(requested) WHERE done < positions;
