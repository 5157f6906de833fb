-- The balance check of a journal entry (the deferred `postings_balanced` trigger, 0004 and 0029)
-- in one query that reaches each posting's account through its primary key.
--
-- The check runs once per posting row (twice per two-posting entry). Its per-asset query was a
-- join of the entry's postings with ledger_accounts that the cached generic plan ran as a hash
-- join over a sequential scan of every account, for each posting checked, and the per-entry
-- totals were a second query over the same postings. Now the entry's postings are read once
-- (postings_entry), each one's asset is looked up by id, and both rules are decided from that:
-- at least two postings summing to zero, and zero per asset. Same rules, same errors (SQLSTATE
-- check_violation, same messages), at the same point (commit, or SET CONSTRAINTS IMMEDIATE).
CREATE OR REPLACE FUNCTION "ledger_check_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_legs BIGINT;
  v_total NUMERIC;
  v_asset TEXT;
  v_sum NUMERIC;
BEGIN
  -- Both arrays aggregate the same rows in the same order: element 1 of each is one asset.
  SELECT COALESCE(SUM(g."n"), 0), COALESCE(SUM(g."s"), 0),
         (array_agg(g."asset") FILTER (WHERE g."s" <> 0))[1],
         (array_agg(g."s") FILTER (WHERE g."s" <> 0))[1]
  INTO v_legs, v_total, v_asset, v_sum
  FROM (SELECT x."asset", COUNT(*) AS "n", SUM(x."amount") AS "s"
        FROM (SELECT (SELECT a."asset" FROM "ledger_accounts" a WHERE a."id" = p."account_id")
                       AS "asset",
                     p."amount_micros" AS "amount"
              FROM "postings" p WHERE p."entry_id" = NEW."entry_id") x
        GROUP BY x."asset") g;
  IF v_legs < 2 OR v_total <> 0 THEN
    RAISE EXCEPTION 'journal entry % is unbalanced: % postings summing to %',
      NEW."entry_id", v_legs, v_total USING ERRCODE = 'check_violation';
  END IF;
  IF v_asset IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % is unbalanced in %: its postings sum to %',
      NEW."entry_id", v_asset, v_sum USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
