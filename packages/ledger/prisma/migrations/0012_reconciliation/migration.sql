-- Reconciliation: the books compared with the chain. A run reads every tracked venue position
-- on chain (shares held, value at the share price) and the wallets' reservations against their
-- open legs, and records every difference with its size and cause. A difference above the run's
-- threshold also writes a `reconciliation.drift` event to the outbox (same transaction).
CREATE TABLE "reconciliation_runs" (
  "id" TEXT PRIMARY KEY CHECK ("id" ~ '^recon_[0-9a-f]{32}$'),
  "trigger" TEXT NOT NULL CHECK ("trigger" IN ('schedule', 'manual', 'cli')),
  "threshold_micros" BIGINT NOT NULL CHECK ("threshold_micros" >= 0),
  "started_at" TIMESTAMPTZ(3) NOT NULL,
  "finished_at" TIMESTAMPTZ(3),
  -- Positions read, positions whose chain could not be read, drifts found and above threshold.
  "positions" INTEGER NOT NULL DEFAULT 0,
  "unavailable" INTEGER NOT NULL DEFAULT 0,
  "drifts" INTEGER NOT NULL DEFAULT 0,
  "above_threshold" INTEGER NOT NULL DEFAULT 0,
  "drift_micros" BIGINT NOT NULL DEFAULT 0 CHECK ("drift_micros" >= 0)
);
CREATE INDEX "reconciliation_runs_started" ON "reconciliation_runs" ("started_at" DESC);

CREATE TABLE "reconciliation_drifts" (
  "id" BIGSERIAL PRIMARY KEY,
  "run_id" TEXT NOT NULL REFERENCES "reconciliation_runs" ("id") ON DELETE CASCADE,
  "wallet" TEXT NOT NULL,
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum')),
  "opportunity_id" TEXT,
  "venue_id" TEXT,
  "kind" TEXT NOT NULL CHECK ("kind" IN (
    'untracked', 'shares_missing', 'value_below_books', 'reservation_without_leg')),
  "books_micros" BIGINT NOT NULL,
  "chain_micros" BIGINT NOT NULL,
  "drift_micros" BIGINT NOT NULL CHECK ("drift_micros" > 0),
  "above_threshold" BOOLEAN NOT NULL,
  "cause" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "reconciliation_drifts_run" ON "reconciliation_drifts" ("run_id", "id");
CREATE INDEX "reconciliation_drifts_wallet" ON "reconciliation_drifts" ("wallet", "created_at" DESC);

ALTER TABLE "outbox_events" DROP CONSTRAINT "outbox_events_type_check";
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_type_check" CHECK ("type" IN (
  'deposit.settled', 'withdraw.settled', 'harvest.completed', 'bridge.delivered',
  'bridge.failed', 'position.updated', 'apy.updated', 'reconciliation.drift'));
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_event_types_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_event_types_check" CHECK (
  cardinality("event_types") BETWEEN 1 AND 8
  AND "event_types" <@ ARRAY['deposit.settled', 'withdraw.settled', 'harvest.completed',
    'bridge.delivered', 'bridge.failed', 'position.updated', 'apy.updated',
    'reconciliation.drift']::TEXT[]);

-- Reservations and the open legs that hold them, per wallet and chain: what a reconciliation
-- and verifyLedger compare. A leg holds its amount while it is open (unsigned or submitted):
-- a route's in pending_in, a withdrawal's in pending_out.
CREATE VIEW "ledger_reservations" AS
SELECT COALESCE(b."wallet", o."wallet") AS "wallet", COALESCE(b."chain", o."chain") AS "chain",
       COALESCE(b."bucket", o."bucket") AS "bucket",
       COALESCE(b."balance_micros", 0) AS "books_micros",
       COALESCE(o."open_micros", 0) AS "open_micros"
FROM (SELECT a."wallet", a."chain", a."bucket", a."balance_micros" FROM "ledger_accounts" a
      WHERE a."kind" = 'wallet' AND a."bucket" IN ('pending_in', 'pending_out')
        AND a."balance_micros" <> 0) b
FULL JOIN (
  SELECT p."wallet", p."chain",
         CASE WHEN l."effect" = 'exit_liquid' THEN 'pending_out' ELSE 'pending_in' END AS "bucket",
         SUM(l."amount_micros") AS "open_micros"
  FROM "plan_legs" l JOIN "plans" p ON p."id" = l."plan_id"
  WHERE l."status" IN ('unsigned', 'submitted') AND p."status" = 'prepared'
    AND l."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid')
  GROUP BY 1, 2, 3) o
  ON o."wallet" = b."wallet" AND o."chain" = b."chain" AND o."bucket" = b."bucket";
