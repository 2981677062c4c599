-- Online tournaments with a time control: every table's game gets this clock (JSON of the
-- time control as in POST /api/games), started when the round is paired. NULL: untimed.
ALTER TABLE tournaments ADD COLUMN clock TEXT;
