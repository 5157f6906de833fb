-- What you sign is what you get (issue 44): each plan's simulated outcome, and what settlement
-- found when a leg's transaction moved USDC otherwise.
--
-- plan_simulations: one row per plan, written in the statement that writes the plan. `document`
-- is the plan's `simulation` as served (simulated: each leg's balance changes and the findings;
-- or unavailable with its reason); `digest` the simulated outcome's `sha256:<hex>`, which a
-- divergence names.
CREATE TABLE "plan_simulations" (
  "plan_id" TEXT PRIMARY KEY REFERENCES "plans" ("id") ON DELETE CASCADE,
  "status" TEXT NOT NULL CHECK ("status" = ANY ('{simulated,unavailable}'::text[])),
  "digest" TEXT CHECK ("digest" ~ '^sha256:[0-9a-f]{64}$'),
  "document" JSONB NOT NULL,
  "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  CHECK (("status" = 'simulated') = ("digest" IS NOT NULL))
);

-- plan_divergences: a settled leg whose transaction moved USDC otherwise than the simulation,
-- keyed by the leg and the transaction compared (a fact about that transaction, recorded before
-- its booking; the plan resource shows the one its leg settled with).
CREATE TABLE "plan_divergences" (
  "plan_id" TEXT NOT NULL REFERENCES "plans" ("id") ON DELETE CASCADE,
  "leg_index" INTEGER NOT NULL,
  "tx_id" TEXT NOT NULL,
  "simulation_digest" TEXT NOT NULL CHECK ("simulation_digest" ~ '^sha256:[0-9a-f]{64}$'),
  "changes" JSONB NOT NULL CHECK (jsonb_typeof("changes") = 'array'),
  "recorded_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY ("plan_id", "leg_index", "tx_id")
);

-- The new webhook event type.
ALTER TABLE "outbox_events"
  DROP CONSTRAINT "outbox_events_type_check",
  ADD CONSTRAINT "outbox_events_type_check" CHECK ("type" = ANY (
    '{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid,plan.divergence}'::text[]));

ALTER TABLE "webhook_subscriptions"
  DROP CONSTRAINT "webhook_subscriptions_event_types_check",
  ADD CONSTRAINT "webhook_subscriptions_event_types_check" CHECK (
    cardinality("event_types") BETWEEN 1 AND 10 AND "event_types" <@
    '{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid,plan.divergence}'::text[]);
