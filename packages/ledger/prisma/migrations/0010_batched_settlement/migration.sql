-- Money writes that scale: many journal entries, and many settling legs, in one statement.
-- Same rules as 0009 (ordered locks, dedupe keys, overdraft refused before writing, balanced
-- entries, append-only), with far fewer statements per write:
--
-- 1. `ledger_post_entries` posts a batch of entries set-wise; `ledger_post_entry` is that with
--    one entry. Accounts are found by index through their unique key (0009's
--    `IS NOT DISTINCT FROM` scanned the whole accounts table on every entry).
-- 2. `ledger_record_leg_outcomes` records a batch of settling legs' outcomes in one
--    transaction; `ledger_record_leg_outcome` is that with one leg. The service sends the
--    settlements that arrive while a batch is in flight as the next batch (group commit), so a
--    busy service pays the per-statement and per-commit cost once per batch, not per leg.
-- 3. Balances move once per statement (a statement-level trigger over the inserted postings)
--    instead of once per posting row; the guard on the balance column is skipped (WHEN) for
--    that trigger's own updates, so it no longer calls a function per row.
-- 4. Outbox events are inserted from plpgsql (a LANGUAGE sql function with an INSERT is parsed
--    and planned again on every call).

-- Balance upkeep, per statement: each account moves by the sum of its new postings. The CHECK
-- on ledger_accounts still refuses a negative wallet balance in that same statement.
CREATE FUNCTION "ledger_apply_postings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" a SET "balance_micros" = a."balance_micros" + d."delta"
  FROM (SELECT n."account_id", SUM(n."amount_micros") AS "delta"
        FROM "new_postings" n GROUP BY n."account_id") d
  WHERE a."id" = d."account_id";
  RETURN NULL;
END;
$$;
DROP TRIGGER "postings_apply" ON "postings";
DROP FUNCTION "ledger_apply_posting"();
CREATE TRIGGER "postings_apply" AFTER INSERT ON "postings"
  REFERENCING NEW TABLE AS "new_postings"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_apply_postings"();

-- The guard refuses a direct UPDATE of a balance (trigger depth 0); the upkeep trigger's own
-- updates (depth 1) skip it without a function call.
DROP TRIGGER "ledger_accounts_balance_guard" ON "ledger_accounts";
CREATE TRIGGER "ledger_accounts_balance_guard"
  BEFORE UPDATE OF "balance_micros" ON "ledger_accounts"
  FOR EACH ROW WHEN (pg_trigger_depth() = 0)
  EXECUTE FUNCTION "ledger_balance_guard"();

CREATE OR REPLACE FUNCTION "ledger_insert_outbox"("p_events" JSONB, "p_now" TIMESTAMPTZ)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "outbox_events" ("id", "type", "wallet", "payload", "created_at")
  SELECT t.e ->> 'id', t.e ->> 'type', t.e ->> 'wallet', t.e -> 'payload', "p_now"
  FROM jsonb_array_elements("p_events") WITH ORDINALITY AS t(e, n)
  ORDER BY t.n;
END;
$$;

-- ledger_post_entries(p_entries): p_entries is a JSON array of entries, each
--   { kind, dedupeKey?, planId?, legIndex?, txId?, memo?,
--     postings: [{ kind, wallet, chain, bucket, amount }] }  (amount: digits)
-- and one row comes back per entry, in order: (ord, entry_id, replay).
--
-- 1. finds the accounts by their unique key, creating the missing ones (in key order);
-- 2. locks every account of the batch in id order (concurrent writers never deadlock);
-- 3. claims the entries' dedupe keys: an entry whose key was posted before (or earlier in the
--    batch) is a replay that posts nothing and reports the first entry;
-- 4. refuses an overdraft of a wallet account by the batch's new entries together (SQLSTATE
--    YR001, naming the account), before anything is posted;
-- 5. inserts the postings in account order (balances move once, by account) and runs the
--    deferred balance check now, so a broken entry fails here and not at COMMIT.
CREATE FUNCTION "ledger_post_entries"("p_entries" JSONB)
RETURNS TABLE ("ord" INTEGER, "entry_id" BIGINT, "replay" BOOLEAN)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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

  PERFORM 1 FROM "ledger_accounts" l WHERE l."id" = ANY(v_ids) ORDER BY l."id" FOR UPDATE;

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
$$;

-- (plpgsql wrappers: their plans are cached per connection, a LANGUAGE sql body's are not)
CREATE OR REPLACE FUNCTION "ledger_post_entry"("p_entry" JSONB)
RETURNS TABLE ("entry_id" BIGINT, "replay" BOOLEAN)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY SELECT r."entry_id", r."replay"
    FROM ledger_post_entries(jsonb_build_array("p_entry")) r;
END;
$$;

-- ledger_record_leg_outcomes(p_outcomes): the final outcomes of settling legs, a JSON array of
--   { planId, legIndex, txId, status: 'confirmed' | 'failed', settledAmount?, reason?, now,
--     entry?: <a ledger_post_entries entry>, events: [{ id, type, wallet, payload }] }
-- and one row comes back per outcome, in order. The legs are locked in key order; a leg still
-- open becomes confirmed (with the settled amount) or failed (with the reason), its entry is
-- posted and its events written; a leg already final is reported as it stands (`final` true: a
-- replay or a conflict, the caller tells which) and nothing of its outcome is written. All or
-- nothing: an overdraft anywhere (YR001) writes nothing for any leg of the batch.
CREATE FUNCTION "ledger_record_leg_outcomes"("p_outcomes" JSONB)
RETURNS TABLE ("ord" INTEGER, "final" BOOLEAN, "status" TEXT, "tx_id" TEXT,
               "settled_amount_micros" BIGINT, "failure_reason" TEXT)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_plans TEXT[];
  v_legs INTEGER[];
  v_claimed INTEGER[];
  v_locked INTEGER;
  v_missing TEXT;
BEGIN
  -- The legs' keys as arrays: `plan_id = ANY(v_plans)` lets every statement below reach
  -- plan_legs through its primary key (a join against the JSON alone is planned as a scan).
  SELECT array_agg(t.e ->> 'planId' ORDER BY t.n),
         array_agg((t.e ->> 'legIndex')::INTEGER ORDER BY t.n)
  INTO v_plans, v_legs
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n);

  PERFORM 1 FROM "plan_legs" l
  WHERE l."plan_id" = ANY(v_plans)
    AND (l."plan_id", l."leg_index") IN (SELECT * FROM unnest(v_plans, v_legs))
  ORDER BY l."plan_id", l."leg_index"
  FOR UPDATE;
  GET DIAGNOSTICS v_locked = ROW_COUNT;
  IF v_locked < (SELECT count(*) FROM (SELECT DISTINCT * FROM unnest(v_plans, v_legs)) d) THEN
    SELECT format('%s/%s', u.p, u.i) INTO v_missing
    FROM unnest(v_plans, v_legs) AS u(p, i)
    WHERE NOT EXISTS (SELECT 1 FROM "plan_legs" l WHERE l."plan_id" = u.p AND l."leg_index" = u.i)
    LIMIT 1;
    RAISE EXCEPTION 'leg % does not exist', v_missing USING ERRCODE = 'no_data_found';
  END IF;

  WITH claimed AS (
    UPDATE "plan_legs" l
    SET "status" = t.e ->> 'status',
        "tx_id" = COALESCE(t.e ->> 'txId', l."tx_id"),
        "settled_amount_micros" = (t.e ->> 'settledAmount')::BIGINT,
        "failure_reason" = t.e ->> 'reason',
        "settled_at" = (t.e ->> 'now')::TIMESTAMPTZ,
        "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE l."plan_id" = ANY(v_plans)
      AND l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
      AND l."status" IN ('unsigned', 'submitted')
    RETURNING t.n::INTEGER AS "ord"
  )
  SELECT COALESCE(array_agg(c."ord"), '{}') INTO v_claimed FROM claimed c;

  PERFORM 1 FROM ledger_post_entries((
    SELECT COALESCE(jsonb_agg(t.e -> 'entry' ORDER BY t.n), '[]')
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE t.n::INTEGER = ANY(v_claimed) AND jsonb_typeof(t.e -> 'entry') = 'object'));

  INSERT INTO "outbox_events" ("id", "type", "wallet", "payload", "created_at")
  SELECT v.x ->> 'id', v.x ->> 'type', v.x ->> 'wallet', v.x -> 'payload',
         (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n),
       jsonb_array_elements(t.e -> 'events') WITH ORDINALITY AS v(x, m)
  WHERE t.n::INTEGER = ANY(v_claimed)
  ORDER BY t.n, v.m;

  RETURN QUERY
  SELECT t.n::INTEGER, NOT (t.n::INTEGER = ANY(v_claimed)), l."status", l."tx_id",
         l."settled_amount_micros", l."failure_reason"
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  JOIN "plan_legs" l
    ON l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
  WHERE l."plan_id" = ANY(v_plans)
  ORDER BY t.n;
END;
$$;

CREATE OR REPLACE FUNCTION "ledger_record_leg_outcome"("p" JSONB)
RETURNS TABLE ("final" BOOLEAN, "status" TEXT, "tx_id" TEXT, "settled_amount_micros" BIGINT,
               "failure_reason" TEXT)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  SELECT r."final", r."status", r."tx_id", r."settled_amount_micros", r."failure_reason"
  FROM ledger_record_leg_outcomes(jsonb_build_array("p")) r;
END;
$$;
