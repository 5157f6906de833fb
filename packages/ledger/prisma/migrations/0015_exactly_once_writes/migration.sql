-- Exactly-once money writes.
--
-- 1. `idempotent_writes`: the outcome of a write that carried an Idempotency-Key, one row per
--    (scope, operation, key), where the scope is the wallet the write is for (`wallet:<address>`,
--    whichever API key of its owner called) or, for a public write naming no wallet, the client
--    (`public:<ip>`). The row is inserted in the same transaction as the write's effect (the plan,
--    its journal entry, its outbox events), so the effect and the answer commit together or not
--    at all, and the primary key lets only one of two racing runs commit. Unlike the HTTP
--    records of 0006 (per API key, swept after 24 h) these rows are kept, like the journal's
--    dedupe keys: a retry at any later time gets the first answer.
--    The body is kept as text (always JSON): a BYTEA read through Prisma's PGlite adapter fails.
CREATE TABLE "idempotent_writes" (
  "scope" TEXT NOT NULL,
  "operation" TEXT NOT NULL,
  "key" TEXT NOT NULL CHECK ("key" ~ '^[\x20-\x7e]{1,255}$'),
  "request_hash" TEXT NOT NULL CHECK ("request_hash" ~ '^[0-9a-f]{64}$'),
  "response_status" INTEGER NOT NULL CHECK ("response_status" BETWEEN 200 AND 299),
  "response_headers" JSONB NOT NULL,
  "response_body" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("scope", "operation", "key")
);

-- 2. A dedupe replay must be the same entry. `ledger_post_entries` (0010, and whatever a later
--    migration made of it) is kept under another name and wrapped: when an entry's dedupe key
--    was posted before, the earlier entry must have the same kind, plan, leg and postings, else
--    the call fails with SQLSTATE YR002 naming the key and nothing of the batch is written. A
--    replay used to be silent whatever it carried (a second withdraw plan "reserved" nothing).
ALTER FUNCTION "ledger_post_entries"(JSONB) RENAME TO "ledger_post_entries_unchecked";

CREATE FUNCTION "ledger_post_entries"("p_entries" JSONB)
RETURNS TABLE ("ord" INTEGER, "entry_id" BIGINT, "replay" BOOLEAN)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_ords INTEGER[];
  v_ids BIGINT[];
  v_replays BOOLEAN[];
  v_differs TEXT;
BEGIN
  SELECT array_agg(r."ord" ORDER BY r."ord"), array_agg(r."entry_id" ORDER BY r."ord"),
         array_agg(r."replay" ORDER BY r."ord")
  INTO v_ords, v_ids, v_replays
  FROM ledger_post_entries_unchecked("p_entries") r;
  IF v_ords IS NULL THEN
    RETURN;
  END IF;
  IF true = ANY(v_replays) THEN
    SELECT t.e ->> 'dedupeKey' INTO v_differs
    FROM unnest(v_ords, v_ids, v_replays) AS u("ord", "id", "replay")
    JOIN LATERAL (SELECT "p_entries" -> (u."ord" - 1) AS e) t ON TRUE
    JOIN "journal_entries" j ON j."id" = u."id"
    WHERE u."replay"
      AND (j."kind" IS DISTINCT FROM t.e ->> 'kind'
           OR j."plan_id" IS DISTINCT FROM t.e ->> 'planId'
           OR j."leg_index" IS DISTINCT FROM (t.e ->> 'legIndex')::INTEGER
           OR (SELECT array_agg(s.x ORDER BY s.x)
               FROM (SELECT concat_ws('/', a."wallet", a."chain", a."bucket", p."amount_micros") AS x
                     FROM "postings" p JOIN "ledger_accounts" a ON a."id" = p."account_id"
                     WHERE p."entry_id" = u."id") s)
              IS DISTINCT FROM
              (SELECT array_agg(s.x ORDER BY s.x)
               FROM (SELECT concat_ws('/', q."wallet", q."chain", q."bucket", q."amount") AS x
                     FROM jsonb_to_recordset(t.e -> 'postings')
                       AS q("wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)) s))
    ORDER BY u."ord"
    LIMIT 1;
    IF v_differs IS NOT NULL THEN
      RAISE EXCEPTION 'dedupe key % was posted before as another entry', v_differs
        USING ERRCODE = 'YR002';
    END IF;
  END IF;
  RETURN QUERY SELECT u."ord", u."id", u."replay"
    FROM unnest(v_ords, v_ids, v_replays) AS u("ord", "id", "replay") ORDER BY u."ord";
END;
$$;
