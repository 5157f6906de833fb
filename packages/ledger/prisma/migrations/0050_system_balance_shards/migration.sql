-- 0050_system_balance_shards: system accounts (external, fees:protocol) are no longer one row
-- that every entry of a chain locks. Their balance moves in `ledger_balance_shards`, one row per
-- (account, backend): a transaction only ever updates its own backend's row, so two writers on
-- one chain never wait on each other. A system account's balance is its row's `balance_micros`
-- (what it held before this migration) plus its shards; `ledger_balances` reads it. Wallet
-- accounts keep one row, locked and checked for overdraft as before. See NOTES.md.

CREATE TABLE "ledger_balance_shards" (
  "account_id" BIGINT NOT NULL REFERENCES "ledger_accounts" ("id"),
  "shard" INTEGER NOT NULL CHECK ("shard" >= 0),
  "balance_micros" BIGINT NOT NULL,
  PRIMARY KEY ("account_id", "shard")
) WITH (fillfactor = 50);

-- Like ledger_accounts.balance_micros: moved only by postings (a trigger, one level down) or
-- by ledger_fold_balance_shards, which keeps each account's sum.
CREATE FUNCTION "ledger_shard_guard"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('ledger.folding_shards', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'ledger_balance_shards moves only through postings'
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;

CREATE TRIGGER "ledger_balance_shards_guard"
  BEFORE INSERT OR UPDATE OR DELETE ON "ledger_balance_shards"
  FOR EACH ROW WHEN (pg_trigger_depth() = 0) EXECUTE FUNCTION "ledger_shard_guard"();

CREATE OR REPLACE FUNCTION "ledger_apply_postings"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" a SET "balance_micros" = a."balance_micros" + d."delta"
  FROM (SELECT n."account_id", SUM(n."amount_micros") AS "delta"
        FROM "new_postings" n GROUP BY n."account_id") d
  WHERE a."id" = d."account_id" AND a."kind" = 'wallet';
  -- pg_backend_pid(): no two open transactions share a backend, so none shares a shard row.
  INSERT INTO "ledger_balance_shards" AS s ("account_id", "shard", "balance_micros")
  SELECT n."account_id", pg_backend_pid(), SUM(n."amount_micros")
  FROM "new_postings" n
  JOIN "ledger_accounts" a ON a."id" = n."account_id" AND a."kind" = 'system'
  GROUP BY n."account_id"
  ORDER BY n."account_id"
  ON CONFLICT ("account_id", "shard")
    DO UPDATE SET "balance_micros" = s."balance_micros" + EXCLUDED."balance_micros";
  RETURN NULL;
END;
$$;

-- Every account's balance: a wallet's row, a system account's row plus its shards.
CREATE VIEW "ledger_balances" AS
SELECT a."id", a."kind", a."wallet", a."chain", a."bucket", a."asset",
       CASE WHEN a."kind" = 'wallet' THEN a."balance_micros"
            ELSE a."balance_micros"
                 + COALESCE((SELECT SUM(s."balance_micros") FROM "ledger_balance_shards" s
                             WHERE s."account_id" = a."id"), 0)::BIGINT
       END AS "balance_micros"
FROM "ledger_accounts" a;

-- Folds the shards of backends not writing now into shard 0 (no backend has pid 0), each
-- account's sum unchanged; a shard in use is skipped and folded next time. Returns the number
-- of shard rows folded.
CREATE FUNCTION "ledger_fold_balance_shards"() RETURNS INTEGER LANGUAGE plpgsql AS $$
DECLARE
  v_folded INTEGER;
BEGIN
  PERFORM set_config('ledger.folding_shards', 'on', true);
  WITH "taken" AS (
    SELECT s."account_id", s."shard" FROM "ledger_balance_shards" s
    WHERE s."shard" <> 0
    ORDER BY s."account_id", s."shard"
    FOR UPDATE SKIP LOCKED
  ), "moved" AS (
    DELETE FROM "ledger_balance_shards" s USING "taken" t
    WHERE s."account_id" = t."account_id" AND s."shard" = t."shard"
    RETURNING s."account_id", s."balance_micros"
  ), "folded" AS (
    INSERT INTO "ledger_balance_shards" AS s ("account_id", "shard", "balance_micros")
    SELECT m."account_id", 0, SUM(m."balance_micros") FROM "moved" m
    GROUP BY m."account_id" ORDER BY m."account_id"
    ON CONFLICT ("account_id", "shard")
      DO UPDATE SET "balance_micros" = s."balance_micros" + EXCLUDED."balance_micros"
    RETURNING 1
  )
  SELECT (SELECT COUNT(*) FROM "moved") INTO v_folded FROM (SELECT COUNT(*) FROM "folded") f;
  PERFORM set_config('ledger.folding_shards', 'off', true);
  RETURN v_folded;
END;
$$;

CREATE OR REPLACE FUNCTION public.ledger_post_entries_unchecked(p_entries jsonb)
 RETURNS TABLE(ord integer, entry_id bigint, replay boolean)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_entries INTEGER := jsonb_array_length("p_entries");
  v_ords INTEGER[];
  v_ids BIGINT[];
  v_amounts BIGINT[];
  v_missing BOOLEAN;
  v_entry_ids BIGINT[];
  v_posted INTEGER[];
  v_short TEXT;
BEGIN
  IF v_entries = 0 THEN
    RETURN;
  END IF;
  FOR v_attempt IN 1..2 LOOP
    SELECT array_agg(p."ord"), array_agg(a."id"), array_agg(p."amount"), bool_or(a."id" IS NULL)
    INTO v_ords, v_ids, v_amounts, v_missing
    FROM (SELECT t.n::INTEGER AS "ord", q.*
          FROM jsonb_array_elements("p_entries") WITH ORDINALITY AS t(e, n),
               jsonb_to_recordset(t.e -> 'postings')
                 AS q("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
         ) p
    LEFT JOIN LATERAL (
      SELECT l."id" FROM "ledger_accounts" l
      WHERE p."wallet" IS NOT NULL AND l."wallet" = p."wallet" AND l."chain" = p."chain"
        AND l."bucket" = p."bucket"
      UNION ALL
      SELECT l."id" FROM "ledger_accounts" l
      WHERE p."wallet" IS NULL AND l."wallet" IS NULL AND l."chain" = p."chain"
        AND l."bucket" = p."bucket"
    ) a ON TRUE;
    EXIT WHEN v_missing IS NOT TRUE;
    IF v_attempt = 2 THEN
      RAISE EXCEPTION 'ledger accounts could not be created';
    END IF;
    INSERT INTO "ledger_accounts" ("kind", "wallet", "chain", "bucket")
    SELECT DISTINCT q."kind", q."wallet", q."chain", q."bucket"
    FROM jsonb_array_elements("p_entries") AS t(e),
         jsonb_to_recordset(t.e -> 'postings')
           AS q("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
    ORDER BY q."wallet", q."chain", q."bucket"
    ON CONFLICT ("wallet", "chain", "bucket") DO NOTHING;
  END LOOP;

  -- Wallet accounts only (0050): a system account's balance moves in this backend's own shard
  -- row, so writers on one chain do not wait on each other.
  PERFORM 1 FROM "ledger_accounts" l
  WHERE l."id" = ANY(v_ids) AND l."kind" = 'wallet' ORDER BY l."id" FOR UPDATE;

  -- Entry ids are drawn first, so each inserted row is known by the entry it came from.
  SELECT array_agg(nextval('journal_entries_id_seq')) INTO v_entry_ids
  FROM generate_series(1, v_entries);
  WITH inserted AS (
    INSERT INTO "journal_entries"
      ("id", "kind", "dedupe_key", "plan_id", "leg_index", "tx_id", "memo")
    SELECT v_entry_ids[t.n], t.e ->> 'kind', t.e ->> 'dedupeKey', t.e ->> 'planId',
           (t.e ->> 'legIndex')::INTEGER, t.e ->> 'txId', t.e ->> 'memo'
    FROM jsonb_array_elements("p_entries") WITH ORDINALITY AS t(e, n)
    ORDER BY t.n
    ON CONFLICT ("dedupe_key") DO NOTHING
    RETURNING "id"
  )
  SELECT COALESCE(array_agg(array_position(v_entry_ids, i."id")), '{}') INTO v_posted
  FROM inserted i;

  SELECT format('%s/%s/%s holds %s micros; the entry needs %s', l."wallet", l."chain",
                l."bucket", l."balance_micros", -d."delta")
  INTO v_short
  FROM (SELECT u."id", SUM(u."amount") AS "delta"
        FROM unnest(v_ords, v_ids, v_amounts) AS u("ord", "id", "amount")
        WHERE u."ord" = ANY(v_posted) GROUP BY u."id") d
  JOIN "ledger_accounts" l ON l."id" = d."id"
  WHERE l."id" = ANY(v_ids) AND l."kind" = 'wallet' AND l."balance_micros" + d."delta" < 0
  ORDER BY l."id" LIMIT 1;
  IF v_short IS NOT NULL THEN
    RAISE EXCEPTION '%', v_short USING ERRCODE = 'YR001';
  END IF;

  INSERT INTO "postings" ("entry_id", "account_id", "amount_micros")
  SELECT v_entry_ids[u."ord"], u."id", u."amount"
  FROM unnest(v_ords, v_ids, v_amounts) AS u("ord", "id", "amount")
  WHERE u."ord" = ANY(v_posted)
  ORDER BY u."id", u."ord";
  SET CONSTRAINTS "postings_balanced" IMMEDIATE;

  IF cardinality(v_posted) = v_entries THEN
    RETURN QUERY SELECT u.n::INTEGER, u."id", FALSE
      FROM unnest(v_entry_ids) WITH ORDINALITY AS u("id", n) ORDER BY u.n;
    RETURN;
  END IF;
  -- A replay reports the entry that holds its key (posted before, or earlier in this batch).
  RETURN QUERY
  SELECT t.n::INTEGER, COALESCE(CASE WHEN t.n::INTEGER = ANY(v_posted) THEN v_entry_ids[t.n] END,
                                 e."id"),
         NOT (t.n::INTEGER = ANY(v_posted))
  FROM jsonb_array_elements("p_entries") WITH ORDINALITY AS t(x, n)
  LEFT JOIN "journal_entries" e
    ON NOT (t.n::INTEGER = ANY(v_posted)) AND e."dedupe_key" = t.x ->> 'dedupeKey'
   AND e."dedupe_key" = ANY(ARRAY(SELECT j ->> 'dedupeKey' FROM jsonb_array_elements("p_entries") j))
  ORDER BY t.n;
END;
$function$;


CREATE OR REPLACE FUNCTION public.ledger_record_leg_outcomes(p_outcomes jsonb)
 RETURNS TABLE(ord integer, final boolean, stale boolean, status text, tx_id text, settled_amount_micros bigint, failure_reason text)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
      AND a."kind" = 'wallet'
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
$function$;

