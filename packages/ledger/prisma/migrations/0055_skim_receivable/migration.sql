-- The yield skim collected on chain where the owner holds the receipts (issue #46).
-- fees:receivable (system, one per chain): the protocol's share an exit took out of a venue
--   that the treasury has not received yet (a skim leg not signed, expired or failed); credited
--   when the exit settles, debited by the skim leg's receipt. Reported by reconciliation until
--   paid, never written off.
-- skim (leg effect): the transfer of the skim to the chain's treasury; its receipt moves what
--   the treasury received from fees:receivable to fees:protocol.
-- skim_receivable, treasury_below_books (drift kinds): an open receivable per plan, and a
--   treasury holding less than the skims the books say it received.
ALTER TABLE "ledger_accounts"
  DROP CONSTRAINT "ledger_accounts_check",
  ADD CONSTRAINT "ledger_accounts_check" CHECK (
    "bucket" ~ '^(liquid|pending_in|pending_out|in_flight|staked:svcop[0-9a-f]{24})$'
    OR ("kind" = 'system' AND "bucket" = ANY ('{external,fees:protocol}'::text[]))
    OR ("kind" = 'system' AND "bucket" = 'fees:receivable' AND "chain" <> 'all')
    OR ("kind" = 'wallet' AND "bucket" = 'auto_pay')
    OR ("bucket" !~ '@USDC$' AND (
      ("kind" = 'wallet' AND "bucket" ~ '^liquid@[0-9A-Za-z:_]{1,200}$')
      OR ("kind" = 'system' AND "bucket" ~ '^(external|fees:protocol)@[0-9A-Za-z:_]{1,200}$'))));

ALTER TABLE "plan_legs"
  DROP CONSTRAINT "plan_legs_effect_check",
  ADD CONSTRAINT "plan_legs_effect_check" CHECK ("effect" = ANY (
    '{none,fund_liquid,fund_staked,stake,unstake,exit_liquid,swap,rebalance_out,rebalance_in,unstake_yield,pay_out,bridge_burn,unwrap,bridge_fee,bridged_stake,skim}'::text[]));

ALTER TABLE "reconciliation_drifts"
  DROP CONSTRAINT "reconciliation_drifts_kind_check",
  ADD CONSTRAINT "reconciliation_drifts_kind_check" CHECK (
    "kind" = ANY ('{untracked,shares_missing,value_below_books,reservation_without_leg,wallet_below_books,shares_unknown,in_flight_without_bridge,auto_pay_without_payout,staked_without_position,skim_receivable,treasury_below_books}'::text[]));
