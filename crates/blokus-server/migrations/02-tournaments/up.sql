-- Tournaments (crates/blokus-tournament): each event is stored whole, as the JSON of its
-- settings, entrants, rounds and results, and rewritten in one transaction per action.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    organiser_token TEXT NOT NULL,
    event TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
