-- Reconciliation sees every bucket and asset the books hold (issue 40): new drift kinds.
-- wallet_below_books: the chain shows less of an asset in the owner's wallet than the books say
--   the wallet holds (liquid in any asset; USDC's auto_pay and pending_out too);
-- shares_unknown: a position whose shares the books never tracked, so nothing can be matched
--   against the chain (reported with its whole mark, never silently);
-- in_flight_without_bridge: in_flight differs from the burns of bridges not delivered yet;
-- auto_pay_without_payout: auto_pay differs from what runs with a payout still open hold;
-- staked_without_position: a staked balance differs from its position's mark less fees retained.
ALTER TABLE "reconciliation_drifts"
  DROP CONSTRAINT "reconciliation_drifts_kind_check",
  ADD CONSTRAINT "reconciliation_drifts_kind_check" CHECK (
    "kind" = ANY ('{untracked,shares_missing,value_below_books,reservation_without_leg,wallet_below_books,shares_unknown,in_flight_without_bridge,auto_pay_without_payout,staked_without_position}'::text[]));
