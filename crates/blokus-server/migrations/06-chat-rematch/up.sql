-- Chat per game (src/chat.rs): one row per line, numbered per game across both channels
-- ('players', 'spectators'); `seat` is NULL for spectators' lines, `name` is the name
-- shown when the line was said. Display names themselves live in the seats JSON.
CREATE TABLE chat (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    channel TEXT NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, n)
);
-- The rematch of a finished game (src/rematch.rs, JSON: the new game's id, the seats
-- whose players accepted, the new game's tokens by the seat that gets them).
ALTER TABLE games ADD COLUMN rematch TEXT;
