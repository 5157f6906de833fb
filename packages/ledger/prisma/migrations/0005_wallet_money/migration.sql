-- The wallet money surface. Route and exit plans join the venue plans; a plan that moves a
-- wallet's ledger names that wallet; each leg says what settling it does to the ledger; per
-- wallet settings; and the outbox, written in the same transaction as the ledger change that
-- causes an event.
ALTER TABLE "plans" DROP CONSTRAINT "plans_kind_check";
ALTER TABLE "plans" ADD CONSTRAINT "plans_kind_check"
  CHECK ("kind" IN ('deposit', 'withdraw', 'route', 'exit'));
-- The ledger wallet the plan's settlement moves (the canonical address on the plan's chain).
ALTER TABLE "plans" ADD COLUMN "wallet" TEXT;
CREATE INDEX "plans_wallet_created" ON "plans" ("wallet", "created_at" DESC, "id")
  WHERE "wallet" IS NOT NULL;

-- What settling the leg does (DESIGN §3):
--   none          approvals and other legs that move no money;
--   fund_liquid   route into the router: pending_in → liquid;
--   fund_staked   route with stake, into a venue through the router: pending_in → liquid → staked;
--   stake         venue deposit plan: external → staked;
--   unstake       venue withdraw plan: staked → external;
--   exit_liquid   wallet withdraw out of the router: pending_out → external.
ALTER TABLE "plan_legs" ADD COLUMN "effect" TEXT NOT NULL DEFAULT 'none'
  CHECK ("effect" IN ('none', 'fund_liquid', 'fund_staked', 'stake', 'unstake', 'exit_liquid'));
-- The venue the leg moves money into or out of; null for the router.
ALTER TABLE "plan_legs" ADD COLUMN "venue_id" TEXT REFERENCES "venues" ("id");
ALTER TABLE "plan_legs" ADD COLUMN "settled_at" TIMESTAMPTZ(3);
ALTER TABLE "plan_legs" ADD CONSTRAINT "plan_legs_settled_shape" CHECK (
  ("status" = 'confirmed') = ("settled_amount_micros" IS NOT NULL AND "tx_id" IS NOT NULL)
);
-- Legs still waiting for their transaction to settle (the keeper's settlement watch).
CREATE INDEX "plan_legs_open" ON "plan_legs" ("updated_at")
  WHERE "status" IN ('unsigned', 'submitted') AND "effect" <> 'none';

CREATE TABLE "wallet_settings" (
  "wallet" TEXT PRIMARY KEY,
  "auto_yield_enabled" BOOLEAN NOT NULL DEFAULT false,
  -- The venue route-with-stake deposits into; null = the best ready venue on the chain.
  "auto_yield_venue_id" TEXT REFERENCES "venues" ("id"),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

CREATE TABLE "outbox_events" (
  "id" TEXT PRIMARY KEY CHECK ("id" ~ '^evt_[0-9a-f]{32}$'),
  "seq" BIGSERIAL NOT NULL UNIQUE,
  "type" TEXT NOT NULL CHECK ("type" IN (
    'deposit.settled', 'withdraw.settled', 'harvest.completed', 'bridge.delivered',
    'bridge.failed', 'position.updated', 'apy.updated')),
  "wallet" TEXT,
  "payload" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "relayed_at" TIMESTAMPTZ(3)
);
CREATE INDEX "outbox_events_unrelayed" ON "outbox_events" ("seq") WHERE "relayed_at" IS NULL;
CREATE INDEX "outbox_events_wallet" ON "outbox_events" ("wallet", "seq");
