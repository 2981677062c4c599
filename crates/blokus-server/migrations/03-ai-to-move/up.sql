-- Whether an AI is to move, kept with every event, so that a restart resumes every such
-- game (not only the most recently changed ones). Unfinished games with an AI seat from
-- before are marked: the room finds out on loading whether the AI really is to move.
ALTER TABLE games ADD COLUMN ai_to_move INTEGER NOT NULL DEFAULT 0;
UPDATE games SET ai_to_move = 1 WHERE status <> 'finished' AND seats LIKE '%"kind":"ai"%';
CREATE INDEX games_ai_to_move ON games(updated) WHERE ai_to_move = 1;
