-- Idempotency-Key records: one row per (scope, operation, key). A request claims its key with
-- an in_progress row holding a lease (claim_token, locked_until); finishing stores the exact
-- response bytes to replay. An in_progress row whose lease has passed belongs to a dead owner
-- and may be claimed again. Rows are swept after the retention (24 h by default).
CREATE TABLE "idempotency_keys" (
  -- Whose key space: `key:<apiKeyId>` or `public:<ip>`, so two callers never share records.
  "scope" TEXT NOT NULL,
  "wallet" TEXT,
  "operation" TEXT NOT NULL,
  "key" TEXT NOT NULL CHECK ("key" ~ '^[\x20-\x7e]{1,255}$'),
  "request_hash" TEXT NOT NULL CHECK ("request_hash" ~ '^[0-9a-f]{64}$'),
  "state" TEXT NOT NULL CHECK ("state" IN ('in_progress', 'completed')),
  "claim_token" TEXT NOT NULL,
  "locked_until" TIMESTAMPTZ(3) NOT NULL,
  "response_status" INTEGER CHECK ("response_status" BETWEEN 100 AND 499),
  "response_headers" JSONB,
  "response_body" BYTEA,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "completed_at" TIMESTAMPTZ(3),
  PRIMARY KEY ("scope", "operation", "key"),
  CHECK (
    ("state" = 'completed') = ("response_status" IS NOT NULL AND "response_headers" IS NOT NULL
                               AND "response_body" IS NOT NULL AND "completed_at" IS NOT NULL)
  )
);
-- The sweep: completed rows by completion time, abandoned claims by their lease.
CREATE INDEX "idempotency_keys_expiry" ON "idempotency_keys" ((COALESCE("completed_at", "locked_until")));
