CREATE TABLE IF NOT EXISTS "inbox" (
    scope        text COLLATE "C" NOT NULL,
    message_id   text COLLATE "C" NOT NULL,
    processed_at timestamptz      NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, message_id)
);
CREATE INDEX IF NOT EXISTS "inbox_processed_at_idx" ON "inbox" (processed_at);
