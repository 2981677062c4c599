-- The AI's analysis of finished games: one row per game, its evaluated positions as a
-- JSON array written after each position, so a restart resumes where it stopped.
CREATE TABLE analyses (
    game_id     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    simulations INTEGER NOT NULL,
    positions   INTEGER NOT NULL,
    done        INTEGER NOT NULL DEFAULT 0,
    evals       TEXT NOT NULL DEFAULT '[]',
    requested   INTEGER NOT NULL,
    updated     INTEGER NOT NULL
);
CREATE INDEX analyses_unfinished ON analyses(requested) WHERE done < positions;
