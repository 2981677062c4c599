-- PostgreSQL form of up.sql (claims on the database's clock).
ALTER TABLE analyses ADD COLUMN worker TEXT;
ALTER TABLE analyses ADD COLUMN claimed_until BIGINT;
ALTER TABLE analyses ADD COLUMN queued BIGINT NOT NULL DEFAULT 0;
UPDATE analyses SET queued = requested * 1000;
DROP INDEX analyses_unfinished;
CREATE INDEX analyses_unfinished ON analyses(queued) WHERE done < positions;
