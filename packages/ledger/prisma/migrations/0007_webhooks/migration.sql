-- Webhooks: subscriptions (signing keys sealed at rest), one delivery per (event, subscription)
-- created when the outbox is relayed, and every attempt made.
CREATE TABLE "webhook_subscriptions" (
  "id" TEXT PRIMARY KEY CHECK ("id" ~ '^whk_[0-9a-f]{32}$'),
  -- The owner API key that created it (`key_…` from api_keys, or `static_…` for SVC_API_KEYS);
  -- only that key sees, rotates or deletes it.
  "owner_key_id" TEXT NOT NULL,
  -- The owner key's wallets when it was created (canonical ledger wallets; '*' = every wallet):
  -- events of other wallets never reach it. Events without a wallet (apy.updated) reach every
  -- subscription of their type.
  "wallets" TEXT[] NOT NULL,
  "url" TEXT NOT NULL CHECK (length("url") <= 2048),
  "event_types" TEXT[] NOT NULL CHECK (
    cardinality("event_types") BETWEEN 1 AND 7
    AND "event_types" <@ ARRAY['deposit.settled', 'withdraw.settled', 'harvest.completed',
      'bridge.delivered', 'bridge.failed', 'position.updated', 'apy.updated']::TEXT[]),
  "description" TEXT CHECK (length("description") <= 256),
  -- AES-256-GCM sealed signing keys (`v1.<iv>.<ciphertext>.<tag>`); never the key itself.
  "key_sealed" TEXT NOT NULL,
  -- After a rotation the previous key keeps signing, next to the new one, until this time.
  "previous_key_sealed" TEXT,
  "previous_key_expires_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "rotated_at" TIMESTAMPTZ(3),
  "deleted_at" TIMESTAMPTZ(3),
  CHECK (("previous_key_sealed" IS NULL) = ("previous_key_expires_at" IS NULL))
);
CREATE INDEX "webhook_subscriptions_owner" ON "webhook_subscriptions" ("owner_key_id", "created_at")
  WHERE "deleted_at" IS NULL;

CREATE TABLE "webhook_deliveries" (
  "id" TEXT PRIMARY KEY CHECK ("id" ~ '^dlv_[0-9a-f]{32}$'),
  -- Relay order: deliveries of one subscription are sent in this order (the outbox's).
  "seq" BIGSERIAL NOT NULL UNIQUE,
  "event_id" TEXT NOT NULL REFERENCES "outbox_events" ("id"),
  "subscription_id" TEXT NOT NULL REFERENCES "webhook_subscriptions" ("id"),
  "status" TEXT NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'delivered', 'failed')),
  "attempts" INTEGER NOT NULL DEFAULT 0 CHECK ("attempts" >= 0),
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
  -- A sender's lease: while it runs, nobody else sends this delivery.
  "claim_token" TEXT,
  "locked_until" TIMESTAMPTZ(3),
  "last_status" INTEGER,
  "last_error" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "delivered_at" TIMESTAMPTZ(3),
  UNIQUE ("event_id", "subscription_id"),
  CHECK (("claim_token" IS NULL) = ("locked_until" IS NULL)),
  CHECK (("status" = 'delivered') = ("delivered_at" IS NOT NULL))
);
-- Due deliveries, and each subscription's events in creation (relay) order.
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at")
  WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_subscription_pending" ON "webhook_deliveries"
  ("subscription_id", "seq") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_subscription" ON "webhook_deliveries" ("subscription_id", "seq");

CREATE TABLE "webhook_attempts" (
  "delivery_id" TEXT NOT NULL REFERENCES "webhook_deliveries" ("id"),
  "attempt" INTEGER NOT NULL CHECK ("attempt" >= 1),
  "started_at" TIMESTAMPTZ(3) NOT NULL,
  -- The receiver's answer; null when none came (refused, timed out, URL refused).
  "http_status" INTEGER,
  "latency_ms" INTEGER NOT NULL CHECK ("latency_ms" >= 0),
  "error" TEXT,
  PRIMARY KEY ("delivery_id", "attempt")
);
