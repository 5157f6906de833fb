-- An auto-pay run's withdraw leg on Solana is grossed up for the router's skim (issue #44): its
-- amount is the payout plus the skim the router pays the treasury inside the leg, kept with the
-- plan as `plans.request.routerSkim` (a Sui or EVM leg's is `request.skim`). The pool commits
-- the payees' part of the leg (0067): open → its amount less the planned skim, confirmed → what
-- the venue paid less it. Without the router's skim read here a grossed-up leg released while
-- open would take the leg's whole amount off a commitment that holds only the payout.

-- The skim a plan's withdraw leg carries to the treasury, as its request keeps it: `skim` (Sui,
-- EVM) or `routerSkim` (the Solana router's, 0069); 0 without one or when it is malformed.
CREATE FUNCTION "auto_pay_planned_skim"("p_request" JSONB) RETURNS BIGINT
LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE((
    SELECT (s."planned" ->> 'amountMicros')::BIGINT
    FROM (VALUES (1, "p_request" -> 'skim'), (2, "p_request" -> 'routerSkim')) s("rank", "planned")
    WHERE s."planned" ->> 'amountMicros' ~ '^[0-9]{1,18}$'
    ORDER BY s."rank" LIMIT 1), 0)
$$;

CREATE OR REPLACE FUNCTION "auto_pay_follow_leg"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_planned BIGINT := auto_pay_planned_skim(
    (SELECT p."request" FROM "plans" p WHERE p."id" = NEW."plan_id"));
  v_delta BIGINT :=
    auto_pay_leg_commitment(NEW."status", NEW."released_at" IS NOT NULL, NEW."amount_micros",
                            NEW."settled_amount_micros", NEW."skim_micros", v_planned)
    - auto_pay_leg_commitment(OLD."status", OLD."released_at" IS NOT NULL, OLD."amount_micros",
                              OLD."settled_amount_micros", OLD."skim_micros", v_planned);
BEGIN
  -- The run's pool (0023, 0067).
  UPDATE "auto_pay_yield" y
  SET "committed_micros" = y."committed_micros" + v_delta, "updated_at" = now()
  FROM "auto_pay_runs" r
  WHERE v_delta <> 0 AND r."plan_id" = NEW."plan_id" AND y."wallet" = r."wallet"
    AND y."chain" = r."chain" AND y."opportunity_id" = r."opportunity_id";
  RETURN NULL;
END;
$$;
