-- Swaps in the books (issue 17): accounts gain an asset dimension, so a swap debits the input
-- asset's bucket and credits the output's, from what its receipt proves.
--
-- 1. Assets. A bucket without a suffix holds the books' unit, USDC, as before: every reader of
--    `liquid`, `staked:…`, `external`, `fees:protocol` keeps reading USDC and nothing else. An
--    account of another asset names it after `@` (its id on the chain: an EVM address in lower
--    case, a Solana mint, a Sui coin type, or `native`): a wallet's `liquid@<asset>`, the
--    system's `external@<asset>` (per chain) and `fees:protocol@<asset>` (per chain, since an id
--    means a token on one chain only). `asset` is derived from the bucket (USDC for the plain
--    ones), so (wallet, chain, bucket) stays the key every posting function locks and matches by.
-- 2. Every journal entry balances per asset (checked with the per-entry total, at the same
--    point); wallet accounts of every asset stay non-negative (the CHECK of 0004 covers them).
-- 3. Gas-sponsor plans keep their swap leg's quote like swap plans do (`plans.swap`), and their
--    unwrap leg settles from its receipt (effect `unwrap`: wrapped native out, native in).
SELECT "ledger_widen_check"('ledger_accounts', 'ledger_accounts_check',
  '"bucket" !~ ''@USDC$'' AND (("kind" = ''wallet'' AND "bucket" ~ ''^liquid@[0-9A-Za-z:_]{1,200}$'')
   OR ("kind" = ''system'' AND "bucket" ~ ''^(external|fees:protocol)@[0-9A-Za-z:_]{1,200}$''))');

ALTER TABLE "ledger_accounts" ADD COLUMN "asset" TEXT NOT NULL GENERATED ALWAYS AS (
  CASE WHEN strpos("bucket", '@') > 0 THEN substr("bucket", strpos("bucket", '@') + 1)
       ELSE 'USDC' END) STORED;
CREATE INDEX "ledger_accounts_asset" ON "ledger_accounts" ("asset") WHERE "asset" <> 'USDC';

CREATE OR REPLACE FUNCTION "ledger_check_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total NUMERIC;
  legs INTEGER;
  v_asset TEXT;
  v_sum NUMERIC;
BEGIN
  SELECT COALESCE(SUM("amount_micros"), 0), COUNT(*) INTO total, legs
  FROM "postings" WHERE "entry_id" = NEW."entry_id";
  IF legs < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'journal entry % is unbalanced: % postings summing to %',
      NEW."entry_id", legs, total USING ERRCODE = 'check_violation';
  END IF;
  SELECT a."asset", SUM(p."amount_micros") INTO v_asset, v_sum
  FROM "postings" p JOIN "ledger_accounts" a ON a."id" = p."account_id"
  WHERE p."entry_id" = NEW."entry_id"
  GROUP BY a."asset" HAVING SUM(p."amount_micros") <> 0
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'journal entry % is unbalanced in %: its postings sum to %',
      NEW."entry_id", v_asset, v_sum USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;

SELECT "ledger_widen_check"('plans', 'plans_swap_shape', '"kind" = ''gas_sponsor''');
SELECT "ledger_widen_check"('plan_legs', 'plan_legs_effect_check', '"effect" = ''unwrap''');
