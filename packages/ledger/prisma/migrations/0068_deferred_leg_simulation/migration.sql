-- Issue 44 on Solana and Sui plans of several legs: a node simulates one transaction on the
-- current state, so a later leg is simulated once the leg before it settled (see NOTES.md).
--
-- plan_simulations.deferred_roles: who is who to the plan (owner, venue accounts, treasury,
-- payees, the withdraw legs' skims) as prepare judged its first leg, kept for the legs still
-- `deferred` in `document`, so their findings are computed as at prepare. Null when no leg is
-- deferred.
ALTER TABLE "plan_simulations" ADD COLUMN "deferred_roles" JSONB
  CHECK ("deferred_roles" IS NULL OR jsonb_typeof("deferred_roles") = 'object');

-- The plan statement (0063) writes the column too.
CREATE OR REPLACE FUNCTION "ledger_insert_plans"("p_plans" JSONB, "p_transfers" JSONB, "p_legs" JSONB,
                                      "p_simulations" JSONB)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  WITH plan_rows AS (
    INSERT INTO "plans" ("id", "kind", "status", "chain", "venue_id", "owner", "wallet",
                         "amount_micros", "fee_micros", "request", "blockers", "swap",
                         "created_at")
    SELECT p."id", p."kind", p."status", p."chain", p."venue_id", p."owner", p."wallet",
           p."amount_micros", p."fee_micros", p."request", p."blockers", p."swap",
           COALESCE(p."created_at", now())
    FROM jsonb_to_recordset("p_plans") AS p("id" TEXT, "kind" TEXT, "status" TEXT, "chain" TEXT,
                                            "venue_id" TEXT, "owner" TEXT, "wallet" TEXT,
                                            "amount_micros" BIGINT, "fee_micros" BIGINT,
                                            "request" JSONB, "blockers" JSONB, "swap" JSONB,
                                            "created_at" TIMESTAMPTZ)
  ), transfer_rows AS (
    INSERT INTO "bridge_transfers" ("plan_id", "rail", "speed", "source_chain", "dest_chain",
                                    "owner", "recipient", "burn_micros", "max_rail_fee_micros",
                                    "min_received_micros", "service_fee_micros",
                                    "fee_recipient")
    SELECT t."plan_id", t."rail", t."speed", t."source_chain", t."dest_chain", t."owner",
           t."recipient", t."burn_micros", t."max_rail_fee_micros", t."min_received_micros",
           t."service_fee_micros", t."fee_recipient"
    FROM jsonb_to_recordset("p_transfers") AS t("plan_id" TEXT, "rail" TEXT, "speed" TEXT,
                                                "source_chain" TEXT, "dest_chain" TEXT,
                                                "owner" TEXT, "recipient" TEXT,
                                                "burn_micros" BIGINT,
                                                "max_rail_fee_micros" BIGINT,
                                                "min_received_micros" BIGINT,
                                                "service_fee_micros" BIGINT,
                                                "fee_recipient" TEXT)
  ), simulation_rows AS (
    INSERT INTO "plan_simulations" ("plan_id", "status", "digest", "document", "deferred_roles")
    SELECT s."plan_id", s."status", s."digest", s."document", s."deferred_roles"
    FROM jsonb_to_recordset("p_simulations") AS s("plan_id" TEXT, "status" TEXT, "digest" TEXT,
                                                  "document" JSONB, "deferred_roles" JSONB)
  )
  INSERT INTO "plan_legs" ("plan_id", "leg_index", "action", "summary", "amount_micros",
                           "settles", "payload", "effect", "venue_id", "min_settle_micros",
                           "max_settle_micros", "chain")
  SELECT l."plan_id", l."leg_index", l."action", l."summary", l."amount_micros", l."settles",
         l."payload", l."effect", l."venue_id", l."min_settle_micros", l."max_settle_micros",
         l."chain"
  FROM jsonb_to_recordset("p_legs") AS l("plan_id" TEXT, "leg_index" INTEGER, "action" TEXT,
                                         "summary" TEXT, "amount_micros" BIGINT,
                                         "settles" BOOLEAN, "payload" JSONB, "effect" TEXT,
                                         "venue_id" TEXT, "min_settle_micros" BIGINT,
                                         "max_settle_micros" BIGINT, "chain" TEXT);
END;
$$;

-- plan.simulated: a deferred leg was simulated (its outcome, findings and the plan's new digest).
ALTER TABLE "outbox_events"
  DROP CONSTRAINT "outbox_events_type_check",
  ADD CONSTRAINT "outbox_events_type_check" CHECK ("type" = ANY (
    '{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid,plan.divergence,plan.simulated}'::text[]));

ALTER TABLE "webhook_subscriptions"
  DROP CONSTRAINT "webhook_subscriptions_event_types_check",
  ADD CONSTRAINT "webhook_subscriptions_event_types_check" CHECK (
    cardinality("event_types") BETWEEN 1 AND 11 AND "event_types" <@
    '{deposit.settled,withdraw.settled,harvest.completed,bridge.delivered,bridge.failed,position.updated,apy.updated,reconciliation.drift,auto_pay.paid,plan.divergence,plan.simulated}'::text[]);
