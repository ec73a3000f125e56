ALTER TABLE "inbox"
    ADD COLUMN IF NOT EXISTS request_fingerprint bytea,
    ADD COLUMN IF NOT EXISTS response_status     smallint,
    ADD COLUMN IF NOT EXISTS response_headers    text,
    ADD COLUMN IF NOT EXISTS response_body       bytea;
