-- Idempotency-Keys are stored as `sha256:<hex>` of the key as sent (issue 41): a caller's token
-- (a 64-hex retry key has a private key's shape) is never kept as written. Rows written before
-- this migration are rewritten the same way, so a late retry of an old write still finds it.
UPDATE "idempotency_keys"
SET "key" = 'sha256:' || encode(sha256(convert_to("key", 'UTF8')), 'hex');

UPDATE "idempotent_writes"
SET "key" = 'sha256:' || encode(sha256(convert_to("key", 'UTF8')), 'hex');
