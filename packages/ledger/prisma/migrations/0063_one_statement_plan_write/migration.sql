-- 0063_one_statement_plan_write: a plan, its journal entry, the call's audit rows and its
-- Idempotency-Key answer written by one autocommit statement on the driver, as a settlement is
-- (issue #45). Before, a route write was a Prisma interactive transaction of six round trips
-- (BEGIN, plan, audit, answer, entry, COMMIT), bound by the API process's CPU per statement.
-- See NOTES.md.

-- The plan statement the API sent as text (`yr_insert_plans`), kept once here: plans, their
-- bridge transfers, simulations and legs from four JSON documents. The legs' and transfers'
-- foreign keys are checked at the end of the statement, when the plans are in.
CREATE FUNCTION "ledger_insert_plans"("p_plans" JSONB, "p_transfers" JSONB, "p_legs" JSONB,
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
    INSERT INTO "plan_simulations" ("plan_id", "status", "digest", "document")
    SELECT s."plan_id", s."status", s."digest", s."document"
    FROM jsonb_to_recordset("p_simulations") AS s("plan_id" TEXT, "status" TEXT, "digest" TEXT,
                                                  "document" JSONB)
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

-- ledger_write_plan(p): { plans, transfers, legs, simulations (as ledger_insert_plans takes
-- them), audit: [audit_events rows], write?: { scope, operation, key, requestHash, status,
-- headers, body }, claim?: { scope, operation, key, claimToken }, entry?: <ledger_post_entry
-- payload> }, in this order: the plan; the audit rows; the answer, stored once under its key
-- (another run's answer there first: SQLSTATE YR004, and nothing of this one is written) with
-- the caller's HTTP record completed; the entry last, so its balance locks are taken last.
CREATE FUNCTION "ledger_write_plan"("p" JSONB) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  v_written INTEGER;
BEGIN
  PERFORM ledger_insert_plans("p" -> 'plans', COALESCE("p" -> 'transfers', '[]'),
                              COALESCE("p" -> 'legs', '[]'),
                              COALESCE("p" -> 'simulations', '[]'));

  INSERT INTO "audit_events" ("wallet", "operation", "method", "path", "actor_role", "key_id",
                              "request_id", "plan_id", "outcome", "status", "error_code")
  SELECT e."wallet", e."operation", e."method", e."path", e."actor_role", e."key_id",
         e."request_id", e."plan_id", e."outcome", e."status", e."error_code"
  FROM jsonb_to_recordset(COALESCE("p" -> 'audit', '[]')) AS e(
    "wallet" TEXT, "operation" TEXT, "method" TEXT, "path" TEXT, "actor_role" TEXT,
    "key_id" TEXT, "request_id" TEXT, "plan_id" TEXT, "outcome" TEXT, "status" INTEGER,
    "error_code" TEXT);

  IF jsonb_typeof("p" -> 'write') = 'object' THEN
    INSERT INTO "idempotent_writes" ("scope", "operation", "key", "request_hash",
                                     "response_status", "response_headers", "response_body")
    VALUES ("p" -> 'write' ->> 'scope', "p" -> 'write' ->> 'operation',
            "p" -> 'write' ->> 'key', "p" -> 'write' ->> 'requestHash',
            ("p" -> 'write' ->> 'status')::INTEGER, "p" -> 'write' -> 'headers',
            "p" -> 'write' ->> 'body')
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_written = ROW_COUNT;
    IF v_written = 0 THEN
      RAISE EXCEPTION '% with key % was already written (%)', "p" -> 'write' ->> 'operation',
        "p" -> 'write' ->> 'key', "p" -> 'write' ->> 'scope' USING ERRCODE = 'YR004';
    END IF;
    UPDATE "idempotency_keys"
    SET "state" = 'completed', "response_status" = ("p" -> 'write' ->> 'status')::INTEGER,
        "response_headers" = "p" -> 'write' -> 'headers',
        "response_body" = convert_to("p" -> 'write' ->> 'body', 'UTF8'), "completed_at" = now()
    WHERE "scope" = "p" -> 'claim' ->> 'scope' AND "operation" = "p" -> 'claim' ->> 'operation'
      AND "key" = "p" -> 'claim' ->> 'key' AND "claim_token" = "p" -> 'claim' ->> 'claimToken'
      AND "state" = 'in_progress';
  END IF;

  IF jsonb_typeof("p" -> 'entry') = 'object' THEN
    PERFORM 1 FROM ledger_post_entry("p" -> 'entry');
  END IF;
END;
$$;
