-- The autopilot (issue 19): one policy per wallet, and a record of every decision it made.
-- A policy runs within one Executable chain (sui or solana; never a Map chain). The keeper ticks
-- enabled policies whose `next_tick_at` has passed; a tick is recorded once per wallet and
-- cadence period (the partial unique index), so concurrent or repeated ticks of a period find
-- the first one's decision and prepare no second plan.
CREATE TABLE "autopilot_policies" (
  "wallet" TEXT PRIMARY KEY,
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana')),
  "enabled" BOOLEAN NOT NULL,
  "rebalance_min_delta_bps" INTEGER NOT NULL DEFAULT 700
    CHECK ("rebalance_min_delta_bps" BETWEEN 0 AND 10000),
  "cadence" TEXT NOT NULL DEFAULT 'monthly' CHECK ("cadence" IN ('daily', 'weekly', 'monthly')),
  -- Opportunity ids on "chain"; empty = every ready opportunity of the chain.
  "venue_allowlist" TEXT[] NOT NULL DEFAULT '{}' CHECK (cardinality("venue_allowlist") <= 50),
  "goal" TEXT NOT NULL DEFAULT 'max_apy_30d' CHECK ("goal" IN ('max_apy_30d')),
  -- When the keeper ticks next: the start of the next period after a tick; set at once on enable.
  "next_tick_at" TIMESTAMPTZ(3) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- The keeper's page read: due enabled policies in wallet order.
CREATE INDEX "autopilot_policies_due" ON "autopilot_policies" ("wallet" COLLATE "C", "next_tick_at")
  WHERE "enabled";

CREATE TABLE "autopilot_decisions" (
  "id" BIGSERIAL PRIMARY KEY,
  "wallet" TEXT NOT NULL,
  "kind" TEXT NOT NULL CHECK ("kind" IN ('tick', 'preview', 'decide')),
  -- The cadence period of a tick (`monthly:2026-11`); null for previews and decides.
  "period" TEXT CHECK (("kind" = 'tick') = ("period" IS NOT NULL)),
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana')),
  "outcome" TEXT NOT NULL CHECK ("outcome" IN ('hold', 'switch', 'blocked')),
  "reason" TEXT NOT NULL CHECK ("reason" ~ '^[a-z_]{1,64}$'),
  "plan_id" TEXT REFERENCES "plans" ("id"),
  -- The whole decision document (inputs, incumbent, threshold, outcome), as answered.
  "record" JSONB NOT NULL,
  "decided_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX "autopilot_decisions_tick_period" ON "autopilot_decisions" ("wallet", "period")
  WHERE "kind" = 'tick';

-- Newest first, per wallet: the history page and the last decision.
CREATE INDEX "autopilot_decisions_wallet_id" ON "autopilot_decisions" ("wallet", "id" DESC);
