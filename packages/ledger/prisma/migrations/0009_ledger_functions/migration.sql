-- Money writes in one statement each. An interactive transaction costs a round trip per
-- statement plus BEGIN and COMMIT; a settlement took twelve. These functions keep the rules
-- postJournalEntry and settleLeg kept in TypeScript, so a settlement is one autocommit
-- statement (after one read), and a journal entry inside a larger transaction is one call.
-- The TypeScript side still checks an entry's shape (two or more postings, none zero, summing
-- to zero, known buckets) and decides the postings; the functions apply them.

-- ledger_post_entry(p_entry):
--   p_entry: { kind, dedupeKey?, planId?, legIndex?, txId?, memo?,
--              postings: [{ kind, wallet, chain, bucket, amount }] }  (amount: digits)
--
-- 1. creates the accounts it touches if new; 2. locks them in id order (concurrent writers
-- never deadlock); 3. claims the dedupe key (a replay returns the first entry, posts nothing);
-- 4. refuses an overdraft of a wallet account (SQLSTATE YR001, naming the account);
-- 5. inserts the postings in account order (the balance trigger updates in that order too) and
-- runs the deferred balance check now, so a broken entry fails here and not at COMMIT.
CREATE FUNCTION "ledger_post_entry"("p_entry" JSONB)
RETURNS TABLE ("entry_id" BIGINT, "replay" BOOLEAN)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_entry_id BIGINT;
  v_short RECORD;
BEGIN
  INSERT INTO "ledger_accounts" ("kind", "wallet", "chain", "bucket")
  SELECT DISTINCT p."kind", p."wallet", p."chain", p."bucket"
  FROM jsonb_to_recordset("p_entry" -> 'postings')
    AS p("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
  ON CONFLICT ("wallet", "chain", "bucket") DO NOTHING;

  PERFORM 1 FROM "ledger_accounts" l
  WHERE EXISTS (SELECT 1 FROM jsonb_to_recordset("p_entry" -> 'postings')
    AS p("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
                WHERE l."wallet" IS NOT DISTINCT FROM p."wallet" AND l."chain" = p."chain"
                  AND l."bucket" = p."bucket")
  ORDER BY l."id"
  FOR UPDATE;

  INSERT INTO "journal_entries" ("kind", "dedupe_key", "plan_id", "leg_index", "tx_id", "memo")
  VALUES ("p_entry" ->> 'kind', "p_entry" ->> 'dedupeKey', "p_entry" ->> 'planId',
          ("p_entry" ->> 'legIndex')::INTEGER, "p_entry" ->> 'txId', "p_entry" ->> 'memo')
  ON CONFLICT ("dedupe_key") DO NOTHING
  RETURNING "id" INTO v_entry_id;
  IF v_entry_id IS NULL THEN
    RETURN QUERY SELECT e."id", TRUE FROM "journal_entries" e
      WHERE e."dedupe_key" = "p_entry" ->> 'dedupeKey';
    RETURN;
  END IF;

  SELECT l."id", l."wallet", l."chain", l."bucket", l."balance_micros", d."delta" INTO v_short
  FROM "ledger_accounts" l
  JOIN (SELECT p."wallet", p."chain", p."bucket", SUM(p."amount") AS "delta"
        FROM jsonb_to_recordset("p_entry" -> 'postings')
    AS p("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
        GROUP BY 1, 2, 3) d
    ON l."wallet" = d."wallet" AND l."chain" = d."chain" AND l."bucket" = d."bucket"
  WHERE l."kind" = 'wallet' AND l."balance_micros" + d."delta" < 0
  ORDER BY l."id" LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '%/%/% holds % micros; the entry needs %', v_short."wallet", v_short."chain",
      v_short."bucket", v_short."balance_micros", -v_short."delta" USING ERRCODE = 'YR001';
  END IF;

  INSERT INTO "postings" ("entry_id", "account_id", "amount_micros")
  SELECT v_entry_id, l."id", p."amount"
  FROM jsonb_to_recordset("p_entry" -> 'postings')
    AS p("kind" TEXT, "wallet" TEXT, "chain" TEXT, "bucket" TEXT, "amount" BIGINT)
  JOIN "ledger_accounts" l
    ON l."wallet" IS NOT DISTINCT FROM p."wallet" AND l."chain" = p."chain"
   AND l."bucket" = p."bucket"
  ORDER BY l."id";
  SET CONSTRAINTS "postings_balanced" IMMEDIATE;
  RETURN QUERY SELECT v_entry_id, FALSE;
END;
$$;

-- Outbox events, in the order given, stamped `p_now`: [{ id, type, wallet, payload }].
CREATE FUNCTION "ledger_insert_outbox"("p_events" JSONB, "p_now" TIMESTAMPTZ)
RETURNS VOID LANGUAGE sql AS $$
  INSERT INTO "outbox_events" ("id", "type", "wallet", "payload", "created_at")
  SELECT t.e ->> 'id', t.e ->> 'type', t.e ->> 'wallet', t.e -> 'payload', "p_now"
  FROM jsonb_array_elements("p_events") WITH ORDINALITY AS t(e, n)
  ORDER BY t.n;
$$;

-- The final outcome of a settling leg, recorded at once: under the leg's row lock, a leg that
-- is already final is reported as it stands (`final` true: a replay or a conflict, the caller
-- tells which); otherwise the journal entry is posted (when there is one), the leg becomes
-- confirmed (with the settled amount) or failed (with the reason), and the events are written.
--   p: { planId, legIndex, txId, status: 'confirmed' | 'failed', settledAmount?, reason?, now,
--        entry?: <ledger_post_entry payload>, events: [...] }
CREATE FUNCTION "ledger_record_leg_outcome"("p" JSONB)
RETURNS TABLE ("final" BOOLEAN, "status" TEXT, "tx_id" TEXT, "settled_amount_micros" BIGINT,
               "failure_reason" TEXT)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_leg RECORD;
  v_now TIMESTAMPTZ := ("p" ->> 'now')::TIMESTAMPTZ;
  v_plan TEXT := "p" ->> 'planId';
  v_index INTEGER := ("p" ->> 'legIndex')::INTEGER;
BEGIN
  SELECT l."status", l."tx_id", l."settled_amount_micros", l."failure_reason" INTO v_leg
  FROM "plan_legs" l WHERE l."plan_id" = v_plan AND l."leg_index" = v_index
  FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'leg %/% does not exist', v_plan, v_index USING ERRCODE = 'no_data_found';
  END IF;
  IF v_leg."status" IN ('confirmed', 'failed') THEN
    RETURN QUERY SELECT TRUE, v_leg."status", v_leg."tx_id", v_leg."settled_amount_micros",
      v_leg."failure_reason";
    RETURN;
  END IF;
  IF jsonb_typeof("p" -> 'entry') = 'object' THEN
    PERFORM ledger_post_entry("p" -> 'entry');
  END IF;
  IF "p" ->> 'status' = 'confirmed' THEN
    UPDATE "plan_legs"
    SET "status" = 'confirmed', "tx_id" = "p" ->> 'txId',
        "settled_amount_micros" = ("p" ->> 'settledAmount')::BIGINT, "failure_reason" = NULL,
        "settled_at" = v_now, "updated_at" = v_now
    WHERE "plan_id" = v_plan AND "leg_index" = v_index;
  ELSE
    UPDATE "plan_legs"
    SET "status" = 'failed', "tx_id" = COALESCE("p" ->> 'txId', "tx_id"),
        "failure_reason" = "p" ->> 'reason', "settled_at" = v_now, "updated_at" = v_now
    WHERE "plan_id" = v_plan AND "leg_index" = v_index;
  END IF;
  PERFORM ledger_insert_outbox("p" -> 'events', v_now);
  RETURN QUERY SELECT FALSE, "p" ->> 'status', "p" ->> 'txId',
    ("p" ->> 'settledAmount')::BIGINT, "p" ->> 'reason';
END;
$$;
