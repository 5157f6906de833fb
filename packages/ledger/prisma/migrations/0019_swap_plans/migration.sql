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
