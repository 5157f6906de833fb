-- Issue 41: a swap from the native token (ETH in) wraps it first. The wrap leg settles from its
-- receipt (effect `wrap`): what the wrapped token's Deposit log proves wrapped leaves liquid in
-- the native asset (as far as the books hold it) and comes into liquid in the wrapped asset —
-- the unwrap leg's booking the other way round.
ALTER TABLE "plan_legs"
  DROP CONSTRAINT "plan_legs_effect_check",
  ADD CONSTRAINT "plan_legs_effect_check" CHECK ("effect" = ANY (
    '{none,fund_liquid,fund_staked,stake,unstake,exit_liquid,swap,rebalance_out,rebalance_in,unstake_yield,pay_out,bridge_burn,unwrap,bridge_fee,bridged_stake,skim,wrap}'::text[]));
