-- The treasury's on-chain receipts, on every chain (issue #46). A skim paid inside an exit's own
-- transaction (the Solana router's `venue_skim`, the split of a Sui withdrawal) is booked in the
-- exit's entry; its amount is now kept on the leg, so reconciliation sums what each treasury
-- received — skim legs and inline skims alike — against the treasury's balance
-- (`treasury_below_books`).
ALTER TABLE "plan_legs" ADD COLUMN "skim_micros" BIGINT;
ALTER TABLE "plan_legs" ADD CONSTRAINT "plan_legs_skim_micros_check" CHECK ("skim_micros" >= 0);

-- ledger_record_leg_outcomes_unaudited as 0011 defined it, with the confirmed outcome's
-- `skimMicros` written to the leg.
CREATE OR REPLACE FUNCTION public.ledger_record_leg_outcomes_unaudited(p_outcomes jsonb)
 RETURNS TABLE(ord integer, final boolean, stale boolean, status text, tx_id text, settled_amount_micros bigint, failure_reason text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_plans TEXT[];
  v_legs INTEGER[];
  v_stale INTEGER[];
  v_claimed INTEGER[];
  v_locked INTEGER;
  v_missing TEXT;
BEGIN
  SELECT array_agg(k.p ORDER BY k.p, k.i), array_agg(k.i ORDER BY k.p, k.i)
  INTO v_plans, v_legs
  FROM (SELECT t.e ->> 'planId' AS p, (t.e ->> 'legIndex')::INTEGER AS i
        FROM jsonb_array_elements("p_outcomes") t(e)
        UNION
        SELECT t.e -> 'takeover' ->> 'planId', (t.e -> 'takeover' ->> 'legIndex')::INTEGER
        FROM jsonb_array_elements("p_outcomes") t(e)
        WHERE jsonb_typeof(t.e -> 'takeover') = 'object') k;

  PERFORM 1 FROM "plan_legs" l
  WHERE l."plan_id" = ANY(v_plans)
    AND (l."plan_id", l."leg_index") IN (SELECT * FROM unnest(v_plans, v_legs))
  ORDER BY l."plan_id", l."leg_index"
  FOR UPDATE;
  GET DIAGNOSTICS v_locked = ROW_COUNT;
  IF v_locked < cardinality(v_plans) THEN
    SELECT format('%s/%s', u.p, u.i) INTO v_missing
    FROM unnest(v_plans, v_legs) AS u(p, i)
    WHERE NOT EXISTS (SELECT 1 FROM "plan_legs" l WHERE l."plan_id" = u.p AND l."leg_index" = u.i)
    LIMIT 1;
    RAISE EXCEPTION 'leg % does not exist', v_missing USING ERRCODE = 'no_data_found';
  END IF;

  -- Positions: created when new, locked in key order; an outcome whose position moved since
  -- the caller read it (or that a earlier outcome of this batch moves) is stale.
  INSERT INTO "positions" ("wallet", "chain", "opportunity_id", "venue_id")
  SELECT DISTINCT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
         t.e -> 'position' ->> 'opportunityId', t.e -> 'position' ->> 'venueId'
  FROM jsonb_array_elements("p_outcomes") t(e)
  WHERE jsonb_typeof(t.e -> 'position') = 'object'
  ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "positions" p
  WHERE (p."wallet", p."chain", p."opportunity_id") IN (
    SELECT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
           t.e -> 'position' ->> 'opportunityId'
    FROM jsonb_array_elements("p_outcomes") t(e)
    WHERE jsonb_typeof(t.e -> 'position') = 'object')
  ORDER BY p."wallet", p."chain", p."opportunity_id"
  FOR UPDATE;
  SELECT COALESCE(array_agg(x.n), '{}') INTO v_stale
  FROM (
    SELECT t.n::INTEGER AS n,
           row_number() OVER (PARTITION BY t.e -> 'position' ->> 'wallet',
                              t.e -> 'position' ->> 'chain', t.e -> 'position' ->> 'opportunityId'
                              ORDER BY t.n) AS r,
           p."version" <> (t.e -> 'position' ->> 'version')::BIGINT AS moved
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY t(e, n)
    JOIN "positions" p
      ON p."wallet" = t.e -> 'position' ->> 'wallet' AND p."chain" = t.e -> 'position' ->> 'chain'
     AND p."opportunity_id" = t.e -> 'position' ->> 'opportunityId'
    WHERE jsonb_typeof(t.e -> 'position') = 'object') x
  WHERE x.moved OR x.r > 1;

  -- A transaction the receipt proved is this leg's: the leg that claimed it gives it up.
  UPDATE "plan_legs" l
  SET "tx_id" = NULL,
      "status" = CASE WHEN l."status" = 'submitted' THEN 'unsigned' ELSE l."status" END,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  WHERE jsonb_typeof(t.e -> 'takeover') = 'object' AND NOT (t.n::INTEGER = ANY(v_stale))
    AND l."plan_id" = ANY(v_plans)
    AND l."plan_id" = t.e -> 'takeover' ->> 'planId'
    AND l."leg_index" = (t.e -> 'takeover' ->> 'legIndex')::INTEGER
    AND l."tx_id" = t.e ->> 'txId' AND l."status" NOT IN ('confirmed', 'failed');

  WITH claimed AS (
    UPDATE "plan_legs" l
    SET "status" = t.e ->> 'status',
        "tx_id" = COALESCE(t.e ->> 'txId', l."tx_id"),
        "settled_amount_micros" = (t.e ->> 'settledAmount')::BIGINT,
        "skim_micros" = (t.e ->> 'skimMicros')::BIGINT,
        "shares" = (t.e ->> 'shares')::NUMERIC,
        "failure_reason" = t.e ->> 'reason',
        "review_reason" = t.e ->> 'reviewReason',
        "released_at" = CASE WHEN (t.e ->> 'released')::BOOLEAN
                             THEN (t.e ->> 'now')::TIMESTAMPTZ ELSE l."released_at" END,
        "settled_at" = CASE WHEN t.e ->> 'status' IN ('confirmed', 'failed')
                            THEN (t.e ->> 'now')::TIMESTAMPTZ ELSE l."settled_at" END,
        "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE l."plan_id" = ANY(v_plans)
      AND l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
      AND l."status" IN (SELECT jsonb_array_elements_text(t.e -> 'expect'))
      AND NOT (t.n::INTEGER = ANY(v_stale))
    RETURNING t.n::INTEGER AS "ord"
  )
  SELECT COALESCE(array_agg(c."ord"), '{}') INTO v_claimed FROM claimed c;

  PERFORM 1 FROM ledger_post_entries((
    SELECT COALESCE(jsonb_agg(t.e -> 'entry' ORDER BY t.n), '[]')
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE t.n::INTEGER = ANY(v_claimed) AND jsonb_typeof(t.e -> 'entry') = 'object'));

  UPDATE "positions" p
  SET "shares" = (t.e -> 'position' ->> 'shares')::NUMERIC,
      "mark_micros" = (t.e -> 'position' ->> 'mark')::BIGINT,
      "fees_retained_micros" = (t.e -> 'position' ->> 'feesRetained')::BIGINT,
      "version" = p."version" + 1,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  WHERE t.n::INTEGER = ANY(v_claimed) AND jsonb_typeof(t.e -> 'position') = 'object'
    AND p."wallet" = t.e -> 'position' ->> 'wallet' AND p."chain" = t.e -> 'position' ->> 'chain'
    AND p."opportunity_id" = t.e -> 'position' ->> 'opportunityId';

  PERFORM ledger_insert_item_events("p_outcomes", v_claimed);
  -- Checked now, not at commit: a caller's transaction then rolls back cleanly.
  SET CONSTRAINTS "plan_legs_reservation_released", "journal_entries_posted" IMMEDIATE;

  RETURN QUERY
  SELECT t.n::INTEGER,
         NOT (t.n::INTEGER = ANY(v_claimed)) AND l."status" IN ('confirmed', 'failed'),
         NOT (t.n::INTEGER = ANY(v_claimed)) AND l."status" NOT IN ('confirmed', 'failed'),
         l."status", l."tx_id", l."settled_amount_micros", l."failure_reason"
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  JOIN "plan_legs" l
    ON l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
  WHERE l."plan_id" = ANY(v_plans)
  ORDER BY t.n;
END;
$function$;

