-- PostgreSQL form of up.sql (a boolean where SQLite stores 0 or 1).
ALTER TABLE games ADD COLUMN ai_to_move BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE games SET ai_to_move = TRUE WHERE status <> 'finished' AND seats LIKE '%"kind":"ai"%';
CREATE INDEX games_ai_to_move ON games(updated) WHERE ai_to_move;
