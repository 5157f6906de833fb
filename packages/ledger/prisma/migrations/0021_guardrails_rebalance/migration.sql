-- Guardrails and rebalance (issue 19, parts 1 and 2).
--
-- 1. Guardrails: per wallet, set by its owner, read by agents (and by route, rebalance and the
--    autopilot before they prepare a plan). NULL means "no limit"; a wallet without a row has
--    none. The constants of the document (ownerExitAlways, agentMayWithdrawPrincipal) are not
--    stored: nothing can change them.
-- 2. Rebalance plans (kind `rebalance`): one plan on one chain, a withdraw leg out of one venue
--    (effect `rebalance_out`) and a deposit leg into another (effect `rebalance_in`). Nothing is
--    reserved when the plan is prepared; the withdraw leg's receipt moves staked:<from> →
--    pending_in, the deposit leg's moves pending_in → staked:<to>. An open deposit leg holds
--    what its plan's withdraw leg put in pending_in; released, it gives it back to the chain
--    (the owner's wallet holds the money).

-- ── 1. Guardrails ────────────────────────────────────────────────────────
CREATE TABLE "wallet_guardrails" (
  "wallet" TEXT PRIMARY KEY,
  -- Chains route and rebalance may put money on; NULL = every chain.
  "allowed_chains" TEXT[] CHECK (
    "allowed_chains" IS NULL
    OR "allowed_chains" <@ ARRAY['sui', 'solana', 'base', 'arbitrum']::TEXT[]),
  -- Opportunities money may enter; NULL = every opportunity.
  "venue_allowlist" TEXT[] CHECK (cardinality("venue_allowlist") <= 64),
  -- { "<opportunityId>": bps 1..10000 }: the most of the wallet's staked principal on the
  -- opportunity's chain that may sit in it.
  "max_allocation_bps" JSONB NOT NULL DEFAULT '{}' CHECK (jsonb_typeof("max_allocation_bps") = 'object'),
  "max_per_opportunity_micros" BIGINT CHECK ("max_per_opportunity_micros" > 0),
  "min_net_apy_bps" INTEGER CHECK ("min_net_apy_bps" BETWEEN 0 AND 10000),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- ── 2. Rebalance plans and legs ──────────────────────────────────────────
ALTER TABLE "plans" DROP CONSTRAINT "plans_kind_check";
ALTER TABLE "plans" ADD CONSTRAINT "plans_kind_check"
  CHECK ("kind" IN ('deposit', 'withdraw', 'route', 'exit', 'swap', 'rebalance'));
ALTER TABLE "plan_legs" DROP CONSTRAINT "plan_legs_effect_check";
ALTER TABLE "plan_legs" ADD CONSTRAINT "plan_legs_effect_check"
  CHECK ("effect" IN ('none', 'fund_liquid', 'fund_staked', 'stake', 'unstake', 'exit_liquid',
                      'swap', 'rebalance_out', 'rebalance_in'));

-- A pending_in / pending_out movement must name the leg that holds it (0011): rebalance legs
-- hold pending_in between the withdraw leg's receipt and the deposit leg's.
CREATE OR REPLACE FUNCTION "ledger_check_reservations"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_entry BIGINT;
BEGIN
  SELECT e."id" INTO v_entry
  FROM (SELECT DISTINCT n."entry_id" FROM "new_postings" n
        JOIN "ledger_accounts" a ON a."id" = n."account_id"
        WHERE a."bucket" IN ('pending_in', 'pending_out')) p
  JOIN "journal_entries" e ON e."id" = p."entry_id"
  WHERE NOT EXISTS (
    SELECT 1 FROM "plan_legs" l
    WHERE l."plan_id" = e."plan_id"
      AND (l."leg_index" = e."leg_index"
           AND l."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid', 'rebalance_out',
                              'rebalance_in')
           OR (e."leg_index" IS NULL AND l."status" IN ('unsigned', 'submitted')
               AND l."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid'))))
  LIMIT 1;
  IF v_entry IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % moves a reservation without the leg that holds it', v_entry
      USING ERRCODE = 'YR003';
  END IF;
  RETURN NULL;
END;
$$;

-- Reservations per wallet and chain against the open legs that hold them (0012), now with
-- the open deposit legs of rebalance plans: each holds what its plan put in pending_in.
CREATE OR REPLACE VIEW "ledger_reservations" AS
SELECT COALESCE(b."wallet", o."wallet") AS "wallet", COALESCE(b."chain", o."chain") AS "chain",
       COALESCE(b."bucket", o."bucket") AS "bucket",
       COALESCE(b."balance_micros", 0) AS "books_micros",
       COALESCE(o."open_micros", 0) AS "open_micros"
FROM (SELECT a."wallet", a."chain", a."bucket", a."balance_micros" FROM "ledger_accounts" a
      WHERE a."kind" = 'wallet' AND a."bucket" IN ('pending_in', 'pending_out')
        AND a."balance_micros" <> 0) b
FULL JOIN (
  SELECT h."wallet", h."chain", h."bucket", SUM(h."micros") AS "open_micros"
  FROM (
    SELECT p."wallet", p."chain",
           CASE WHEN l."effect" = 'exit_liquid' THEN 'pending_out' ELSE 'pending_in' END
             AS "bucket",
           l."amount_micros" AS "micros"
    FROM "plan_legs" l JOIN "plans" p ON p."id" = l."plan_id"
    WHERE l."status" IN ('unsigned', 'submitted') AND p."status" = 'prepared'
      AND l."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid')
    UNION ALL
    SELECT p."wallet", p."chain", 'pending_in', po."amount_micros"
    FROM "plan_legs" l JOIN "plans" p ON p."id" = l."plan_id"
    JOIN "journal_entries" e ON e."plan_id" = p."id"
    JOIN "postings" po ON po."entry_id" = e."id"
    JOIN "ledger_accounts" a ON a."id" = po."account_id" AND a."wallet" = p."wallet"
     AND a."chain" = p."chain" AND a."bucket" = 'pending_in'
    WHERE l."effect" = 'rebalance_in' AND l."status" IN ('unsigned', 'submitted')
      AND p."status" = 'prepared') h
  GROUP BY 1, 2, 3
  HAVING SUM(h."micros") <> 0) o
  ON o."wallet" = b."wallet" AND o."chain" = b."chain" AND o."bucket" = b."bucket";
