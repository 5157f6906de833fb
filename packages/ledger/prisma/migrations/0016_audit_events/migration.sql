-- The audit trail of a wallet: one row per state-changing call on it (route, withdraw, settle,
-- cancel, harvest, auto-yield, webhook changes), written by the HTTP layer in the transaction of
-- the change where the use case takes a recorder, else right after it; a refusal (a known error
-- code) gets its row too. Only who and what, never a body: no signature, transaction or key
-- material can reach this table. Rows are append-only.
CREATE TABLE "audit_events" (
  "id" BIGSERIAL PRIMARY KEY,
  "wallet" TEXT NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "operation" TEXT NOT NULL CHECK ("operation" ~ '^[A-Za-z][A-Za-z0-9]{0,63}$'),
  "method" TEXT NOT NULL CHECK ("method" IN ('POST', 'PUT', 'DELETE')),
  "path" TEXT NOT NULL CHECK (length("path") <= 256),
  "actor_role" TEXT NOT NULL CHECK ("actor_role" IN ('owner', 'agent', 'keeper', 'public')),
  "key_id" TEXT CHECK (length("key_id") <= 64),
  "request_id" TEXT NOT NULL CHECK (length("request_id") <= 128),
  "plan_id" TEXT CHECK (length("plan_id") <= 128),
  "outcome" TEXT NOT NULL CHECK ("outcome" IN ('ok', 'blocked', 'refused')),
  "status" INTEGER NOT NULL CHECK ("status" BETWEEN 200 AND 599),
  "error_code" TEXT CHECK (length("error_code") <= 64)
);

-- Newest first, per wallet: the page read of GET /wallets/{address}/audit.
CREATE INDEX "audit_events_wallet_id" ON "audit_events" ("wallet", "id" DESC);
