-- A settle call's audit row commits with the outcome it records. Settlement outcomes are
-- group-committed (one `ledger_record_leg_outcomes` statement carries several requests'), so no
-- caller has a transaction of its own to write its row in: each outcome now carries its call's
-- audit rows, `audit: [{ wallet, operation, method, path, actor_role, key_id, request_id,
-- plan_id, outcome, status, error_code }]` (absent or empty: none, as for the keeper), and they
-- are inserted in the same statement, for the outcomes it writes only. An outcome that writes
-- nothing (its leg already final: a replay or a conflict; or stale: the caller reads again)
-- inserts no row; its caller records the call as before. A batch that fails as a whole writes
-- no row, and each outcome retried alone carries its own.
--
-- The function of 0011 is kept under another name and wrapped (as 0015 did for
-- ledger_post_entries): same argument, same rows.
ALTER FUNCTION "ledger_record_leg_outcomes"(JSONB) RENAME TO "ledger_record_leg_outcomes_unaudited";

CREATE FUNCTION "ledger_record_leg_outcomes"("p_outcomes" JSONB)
RETURNS TABLE ("ord" INTEGER, "final" BOOLEAN, "stale" BOOLEAN, "status" TEXT, "tx_id" TEXT,
               "settled_amount_micros" BIGINT, "failure_reason" TEXT)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  -- A data-modifying WITH runs once and to completion whether or not the result reads it.
  RETURN QUERY
  WITH r AS MATERIALIZED (
    SELECT * FROM ledger_record_leg_outcomes_unaudited("p_outcomes")
  ), audited AS (
    INSERT INTO "audit_events" ("wallet", "operation", "method", "path", "actor_role", "key_id",
                                "request_id", "plan_id", "outcome", "status", "error_code")
    SELECT a.e ->> 'wallet', a.e ->> 'operation', a.e ->> 'method', a.e ->> 'path',
           a.e ->> 'actor_role', a.e ->> 'key_id', a.e ->> 'request_id', a.e ->> 'plan_id',
           a.e ->> 'outcome', (a.e ->> 'status')::INTEGER, a.e ->> 'error_code'
    FROM r
    CROSS JOIN LATERAL (SELECT "p_outcomes" -> (r."ord" - 1) -> 'audit' AS x) carried
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(carried.x) = 'array' THEN carried.x ELSE '[]'::JSONB END
    ) WITH ORDINALITY AS a(e, n)
    WHERE NOT r."final" AND NOT r."stale"
    ORDER BY r."ord", a."n"
    RETURNING 1
  )
  SELECT r."ord", r."final", r."stale", r."status", r."tx_id", r."settled_amount_micros",
         r."failure_reason"
  FROM r
  ORDER BY r."ord";
END;
$$;
