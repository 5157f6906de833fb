-- What an auto-pay run's withdraw leg holds of the pool is the payees' part of it, never the
-- skim it carries to the treasury (issue #46). 0023 counted the leg's amount while open and its
-- receipt's amount once confirmed; with a skim those are not the payees' part:
-- - the leg's amount is the payout grossed up by the plan's skim (`plans.request.skim`);
-- - a receipt of an exit that pays the skim inside its own transaction (Sui's split, the Solana
--   router's venue_skim) proves what the owner received, the skim apart (`skim_micros`, 0066),
--   so the commitment dropped by the skim when the leg confirmed: the pool showed the skim as
--   payable again after every payee was paid, and a payout released after its withdraw
--   settled returned less than its share.
-- Now: open → the amount less the planned skim; confirmed → what the venue paid (the receipt's
-- amount plus the inline skim) less the planned skim; otherwise nothing. The run inserts its
-- payout as committed (insertAutoPayRun), so an open leg's figure is that payout again.
CREATE FUNCTION "auto_pay_leg_commitment"("p_status" TEXT, "p_released" BOOLEAN,
                                          "p_amount" BIGINT, "p_settled" BIGINT,
                                          "p_inline_skim" BIGINT, "p_planned_skim" BIGINT)
RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN "p_status" = 'confirmed'
      THEN GREATEST(COALESCE("p_settled", 0) + COALESCE("p_inline_skim", 0) - "p_planned_skim", 0)
    WHEN "p_status" IN ('unsigned', 'submitted') AND NOT "p_released"
      THEN GREATEST("p_amount" - "p_planned_skim", 0)
    ELSE 0 END
$$;

CREATE OR REPLACE FUNCTION "auto_pay_follow_leg"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_planned BIGINT;
  v_delta BIGINT;
BEGIN
  SELECT CASE WHEN p."request" -> 'skim' ->> 'amountMicros' ~ '^[0-9]{1,18}$'
              THEN (p."request" -> 'skim' ->> 'amountMicros')::BIGINT ELSE 0 END
  INTO v_planned
  FROM "plans" p WHERE p."id" = NEW."plan_id";
  v_planned := COALESCE(v_planned, 0);
  v_delta := auto_pay_leg_commitment(NEW."status", NEW."released_at" IS NOT NULL,
                                     NEW."amount_micros", NEW."settled_amount_micros",
                                     NEW."skim_micros", v_planned)
           - auto_pay_leg_commitment(OLD."status", OLD."released_at" IS NOT NULL,
                                     OLD."amount_micros", OLD."settled_amount_micros",
                                     OLD."skim_micros", v_planned);
  -- The run's pool, as 0023 moved it.
  UPDATE "auto_pay_yield" y
  SET "committed_micros" = y."committed_micros" + v_delta, "updated_at" = now()
  WHERE v_delta <> 0
    AND (y."wallet", y."chain", y."opportunity_id") =
        (SELECT r."wallet", r."chain", r."opportunity_id" FROM "auto_pay_runs" r
         WHERE r."plan_id" = NEW."plan_id");
  RETURN NULL;
END;
$$;

DROP FUNCTION "auto_pay_leg_commitment"(TEXT, BOOLEAN, BIGINT, BIGINT);
