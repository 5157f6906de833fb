-- Swap plans (issue 17, EVM slice): a plan of kind `swap` keeps what its quote said beside the
-- request: tokens, quoted and minimum amounts out, price impact, the quote source and its
-- expiry, and the fee lines (`swap`, JSON the engine writes and reads back). Only swap plans
-- carry it.
ALTER TABLE "plans" DROP CONSTRAINT "plans_kind_check";
ALTER TABLE "plans" ADD CONSTRAINT "plans_kind_check"
  CHECK ("kind" IN ('deposit', 'withdraw', 'route', 'exit', 'swap'));
ALTER TABLE "plans" ADD COLUMN "swap" JSONB;
ALTER TABLE "plans" ADD CONSTRAINT "plans_swap_shape"
  CHECK (("kind" = 'swap') = ("swap" IS NOT NULL));

-- A swap leg settles from its receipt (effect `swap`): the amount out the output token's
-- Transfer logs paid the owner is its settled amount; the service fee it paid posts to
-- fees:protocol. It reserves nothing, so the reservation rules (0011) do not apply to it.
ALTER TABLE "plan_legs" DROP CONSTRAINT "plan_legs_effect_check";
ALTER TABLE "plan_legs" ADD CONSTRAINT "plan_legs_effect_check"
  CHECK ("effect" IN ('none', 'fund_liquid', 'fund_staked', 'stake', 'unstake', 'exit_liquid',
                      'swap'));
