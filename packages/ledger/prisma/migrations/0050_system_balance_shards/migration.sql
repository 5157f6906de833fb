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


-- The accounts a guarded settlement batch creates up front and locks (0041): its wallet accounts
-- only now. A system account its entries name is found (or created, once ever) by
-- ledger_post_entries, unlocked.
CREATE OR REPLACE FUNCTION "ledger_outcome_accounts"("p_outcomes" JSONB)
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
  WHERE q."wallet" IS NOT NULL
$$;
