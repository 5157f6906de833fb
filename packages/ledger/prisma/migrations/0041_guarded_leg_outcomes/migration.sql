-- Leg outcomes guarded by the balances they were computed from, and auto-pay payouts that
-- release (issue 40).
--
-- 1. Guards. An outcome may carry `guards: [{ kind, wallet, chain, bucket, planId?, expect }]`:
--    the balances its booking was computed from (a swap's input held, an exit's liquid, a payout's
--    share of auto_pay). Under the locks the booking takes — legs, positions, then every account
--    it names in id order, the order of the function this wraps — each guard is read again: the
--    account's balance, or with `planId` what that plan's entries put in the account. An outcome
--    whose guard moved is written as nothing and answered `stale` (the caller reads and computes
--    again), so no balance a booking depends on is read outside the lock that books it.
-- 2. Auto-pay returns. An outcome may carry `autoPayReturn` (micros): a payout leg released
--    after its run's withdraw settled moved its share from auto_pay back to liquid (where the
--    chain left it, in the owner's wallet); the pool un-commits it and keeps it as
--    `returned_micros`, which the next run pays from liquid before it withdraws from the venue.
--    A late landing of that leg takes it back (a negative return). Applied for written outcomes
--    only, with the pool locked right after the legs (a run locks the pool before accounts).
-- 3. Auto-pay sweeps. An outcome of an auto-pay leg carries `autoPaySweep` (the wallet's auto_pay
--    and liquid accounts). Once the run's withdraw leg is no longer open, what the plan holds in
--    auto_pay beyond what its open payout legs will pay (a withdraw that landed after its payouts
--    were released, a long fill, a short payout) goes back the same way: auto_pay → liquid
--    (`auto_pay.returned`), un-committed and kept as returned. Every leg of such a plan is locked
--    with the batch's legs, in key order, so a release and a settlement of one run see each other.
ALTER TABLE "auto_pay_yield"
  ADD COLUMN "returned_micros" BIGINT NOT NULL DEFAULT 0 CHECK ("returned_micros" >= 0);

ALTER FUNCTION "ledger_record_leg_outcomes"(JSONB) RENAME TO "ledger_record_leg_outcomes_unguarded";

-- The accounts a batch names: its entries' postings, its guards and its auto-pay sweeps.
CREATE FUNCTION "ledger_outcome_accounts"("p_outcomes" JSONB)
RETURNS TABLE ("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT)
LANGUAGE sql STABLE AS $$
  SELECT DISTINCT q."kind", q."wallet", q."chain", q."bucket"
  FROM jsonb_array_elements("p_outcomes") t(e),
       jsonb_to_recordset(
         CASE WHEN jsonb_typeof(t.e -> 'entry') = 'object' THEN t.e -> 'entry' -> 'postings'
              ELSE '[]'::JSONB END
         || CASE WHEN jsonb_typeof(t.e -> 'guards') = 'array' THEN t.e -> 'guards'
                 ELSE '[]'::JSONB END
         || CASE WHEN jsonb_typeof(t.e -> 'autoPaySweep') = 'array' THEN t.e -> 'autoPaySweep'
                 ELSE '[]'::JSONB END
       ) AS q("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT)
$$;

CREATE FUNCTION "ledger_record_leg_outcomes"("p_outcomes" JSONB)
RETURNS TABLE ("ord" INTEGER, "final" BOOLEAN, "stale" BOOLEAN, "status" TEXT, "tx_id" TEXT,
               "settled_amount_micros" BIGINT, "failure_reason" TEXT)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_items JSONB := "p_outcomes";
  v_guarded BOOLEAN := jsonb_path_exists("p_outcomes", '$[*].guards[*]');
  v_returns BOOLEAN := jsonb_path_exists("p_outcomes", '$[*].autoPayReturn');
  v_sweeps BOOLEAN := jsonb_path_exists("p_outcomes", '$[*].autoPaySweep');
  v_swept TEXT[] := '{}';
  v_plan TEXT;
  v_excess BIGINT;
  v_plans TEXT[];
  v_legs INTEGER[];
  v_moved INTEGER[];
  v_row RECORD;
  v_return BIGINT;
BEGIN
  IF v_guarded OR v_returns OR v_sweeps THEN
    -- The wrapped function's leg locks, taken first, in its order.
    SELECT array_agg(k.p ORDER BY k.p, k.i), array_agg(k.i ORDER BY k.p, k.i)
    INTO v_plans, v_legs
    FROM (SELECT t.e ->> 'planId' AS p, (t.e ->> 'legIndex')::INTEGER AS i
          FROM jsonb_array_elements("p_outcomes") t(e)
          UNION
          SELECT t.e -> 'takeover' ->> 'planId', (t.e -> 'takeover' ->> 'legIndex')::INTEGER
          FROM jsonb_array_elements("p_outcomes") t(e)
          WHERE jsonb_typeof(t.e -> 'takeover') = 'object'
          UNION
          SELECT l."plan_id", l."leg_index" FROM "plan_legs" l
          WHERE l."plan_id" IN (SELECT t.e ->> 'planId' FROM jsonb_array_elements("p_outcomes") t(e)
                                WHERE t.e ? 'autoPaySweep')) k;
    PERFORM 1 FROM "plan_legs" l
    WHERE l."plan_id" = ANY(v_plans)
      AND (l."plan_id", l."leg_index") IN (SELECT * FROM unnest(v_plans, v_legs))
    ORDER BY l."plan_id", l."leg_index"
    FOR UPDATE;
  END IF;
  IF v_returns OR v_sweeps THEN
    PERFORM 1 FROM "auto_pay_yield" y JOIN "auto_pay_runs" r
      ON y."wallet" = r."wallet" AND y."chain" = r."chain" AND y."opportunity_id" = r."opportunity_id"
    WHERE r."plan_id" IN (SELECT t.e ->> 'planId' FROM jsonb_array_elements("p_outcomes") t(e)
                          WHERE t.e ? 'autoPayReturn' OR t.e ? 'autoPaySweep')
    ORDER BY y."wallet", y."chain", y."opportunity_id"
    FOR UPDATE OF y;
  END IF;
  IF v_guarded OR v_sweeps THEN
    -- Positions, then accounts (created when new, in key order; locked in id order): the
    -- wrapped function and ledger_post_entries take the same locks again, already held.
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
    INSERT INTO "ledger_accounts" ("kind", "wallet", "chain", "bucket")
    SELECT o."kind", o."wallet", o."chain", o."bucket"
    FROM ledger_outcome_accounts("p_outcomes") o
    WHERE NOT EXISTS (SELECT 1 FROM "ledger_accounts" a
                      WHERE a."wallet" IS NOT DISTINCT FROM o."wallet"
                        AND a."chain" IS NOT DISTINCT FROM o."chain" AND a."bucket" = o."bucket")
    ORDER BY o."wallet", o."chain", o."bucket"
    ON CONFLICT ("wallet", "chain", "bucket") DO NOTHING;
    PERFORM 1 FROM "ledger_accounts" a
    WHERE EXISTS (SELECT 1 FROM ledger_outcome_accounts("p_outcomes") o
                  WHERE a."wallet" IS NOT DISTINCT FROM o."wallet"
                    AND a."chain" IS NOT DISTINCT FROM o."chain" AND a."bucket" = o."bucket")
    ORDER BY a."id"
    FOR UPDATE;

    SELECT COALESCE(array_agg(DISTINCT t.n::INTEGER), '{}') INTO v_moved
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    CROSS JOIN LATERAL jsonb_to_recordset(
      CASE WHEN jsonb_typeof(t.e -> 'guards') = 'array' THEN t.e -> 'guards' ELSE '[]'::JSONB END
    ) AS g("wallet" TEXT, "chain" TEXT, "bucket" TEXT, "planId" TEXT, "expect" NUMERIC)
    JOIN "ledger_accounts" a
      ON a."wallet" = g."wallet" AND a."chain" = g."chain" AND a."bucket" = g."bucket"
    WHERE g."expect" <> CASE
      WHEN g."planId" IS NULL THEN a."balance_micros"
      ELSE (SELECT COALESCE(SUM(po."amount_micros"), 0) FROM "journal_entries" j
            JOIN "postings" po ON po."entry_id" = j."id"
            WHERE j."plan_id" = g."planId" AND po."account_id" = a."id") END;
    IF cardinality(v_moved) > 0 THEN
      -- Written as nothing: the leg is not in `[]`, so the wrapped function answers it stale
      -- (or final, when it already was).
      SELECT jsonb_agg(CASE WHEN t.n::INTEGER = ANY(v_moved)
                            THEN (t.e - 'position' - 'entry' - 'takeover' - 'autoPayReturn')
                                 || '{"expect": []}'::JSONB
                            ELSE t.e END ORDER BY t.n)
      INTO v_items
      FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n);
    END IF;
  END IF;

  FOR v_row IN SELECT * FROM ledger_record_leg_outcomes_unguarded(v_items) r ORDER BY r."ord" LOOP
    v_return := (v_items -> (v_row."ord" - 1) ->> 'autoPayReturn')::BIGINT;
    IF v_return IS NOT NULL AND v_return <> 0 AND NOT v_row."final" AND NOT v_row."stale" THEN
      UPDATE "auto_pay_yield" y
      SET "committed_micros" = y."committed_micros"
            - GREATEST(LEAST(v_return, y."committed_micros"), -y."returned_micros"),
          "returned_micros" = y."returned_micros"
            + GREATEST(LEAST(v_return, y."committed_micros"), -y."returned_micros"),
          "updated_at" = now()
      FROM "auto_pay_runs" r
      WHERE r."plan_id" = v_items -> (v_row."ord" - 1) ->> 'planId'
        AND y."wallet" = r."wallet" AND y."chain" = r."chain"
        AND y."opportunity_id" = r."opportunity_id";
    END IF;
    IF v_items -> (v_row."ord" - 1) ? 'autoPaySweep' AND NOT v_row."final"
       AND NOT v_row."stale" THEN
      v_swept := array_append(v_swept, v_items -> (v_row."ord" - 1) ->> 'planId');
    END IF;
    "ord" := v_row."ord";
    "final" := v_row."final";
    "stale" := v_row."stale";
    "status" := v_row."status";
    "tx_id" := v_row."tx_id";
    "settled_amount_micros" := v_row."settled_amount_micros";
    "failure_reason" := v_row."failure_reason";
    RETURN NEXT;
  END LOOP;

  FOR v_plan IN SELECT DISTINCT u FROM unnest(v_swept) u ORDER BY 1 LOOP
    CONTINUE WHEN EXISTS (SELECT 1 FROM "plan_legs" l
                          WHERE l."plan_id" = v_plan AND l."effect" = 'unstake_yield'
                            AND l."status" IN ('unsigned', 'submitted') AND l."released_at" IS NULL);
    SELECT COALESCE(SUM(po."amount_micros"), 0)
           - (SELECT COALESCE(SUM(l."amount_micros"), 0) FROM "plan_legs" l
              WHERE l."plan_id" = v_plan AND l."effect" = 'pay_out'
                AND l."status" IN ('unsigned', 'submitted') AND l."released_at" IS NULL)
    INTO v_excess
    FROM "auto_pay_runs" r
    JOIN "journal_entries" j ON j."plan_id" = r."plan_id"
    JOIN "postings" po ON po."entry_id" = j."id"
    JOIN "ledger_accounts" a ON a."id" = po."account_id"
      AND a."wallet" = r."wallet" AND a."chain" = r."chain" AND a."bucket" = 'auto_pay'
    WHERE r."plan_id" = v_plan;
    CONTINUE WHEN v_excess IS NULL OR v_excess <= 0;
    -- The wrapped function made the posted-entry check immediate; an entry gets its postings
    -- after its row, within ledger_post_entries: deferred for it, then immediate again.
    SET CONSTRAINTS "journal_entries_posted" DEFERRED;
    PERFORM 1 FROM ledger_post_entries((
      SELECT jsonb_build_array(jsonb_build_object(
        'kind', 'auto_pay.returned', 'planId', r."plan_id",
        'memo', 'held for payouts no longer open: back to the owner''s liquid and the pool',
        'postings', jsonb_build_array(
          jsonb_build_object('kind', 'wallet', 'wallet', r."wallet", 'chain', r."chain",
                             'bucket', 'auto_pay', 'amount', (-v_excess)::TEXT),
          jsonb_build_object('kind', 'wallet', 'wallet', r."wallet", 'chain', r."chain",
                             'bucket', 'liquid', 'amount', v_excess::TEXT))))
      FROM "auto_pay_runs" r WHERE r."plan_id" = v_plan));
    SET CONSTRAINTS "journal_entries_posted" IMMEDIATE;
    UPDATE "auto_pay_yield" y
    SET "committed_micros" = y."committed_micros" - LEAST(v_excess, y."committed_micros"),
        "returned_micros" = y."returned_micros" + LEAST(v_excess, y."committed_micros"),
        "updated_at" = now()
    FROM "auto_pay_runs" r
    WHERE r."plan_id" = v_plan AND y."wallet" = r."wallet" AND y."chain" = r."chain"
      AND y."opportunity_id" = r."opportunity_id";
  END LOOP;
END;
$$;
