-- Which server computes each unfinished analysis, and until when its claim holds without
-- renewal (milliseconds). A server that dies leaves its claim to run out; another one then
-- takes the analysis over where the stored positions stop. `queued` orders the queue to
-- the millisecond (the order requests came in; a failed analysis goes to the back).
ALTER TABLE analyses ADD COLUMN worker TEXT;
ALTER TABLE analyses ADD COLUMN claimed_until INTEGER;
ALTER TABLE analyses ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
UPDATE analyses SET queued = requested * 1000;
DROP INDEX analyses_unfinished;
CREATE INDEX analyses_unfinished ON analyses(queued) WHERE done < positions;
