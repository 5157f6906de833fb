-- Gas-sponsor plans (issue 17, item 4): a plan of kind `gas_sponsor` tops a wallet's native gas
-- up (approve, swap USDC for wrapped native, unwrap). Its amount is the USDC the top-up sells:
-- 0 when the wallet already holds enough gas, or when the plan is blocked before a price. Its
-- legs move no booked USDC yet (effect `none`). `rebalance` is 0021's kind, kept.
ALTER TABLE "plans" DROP CONSTRAINT "plans_kind_check";
ALTER TABLE "plans" ADD CONSTRAINT "plans_kind_check"
  CHECK ("kind" IN ('deposit', 'withdraw', 'route', 'exit', 'swap', 'rebalance', 'gas_sponsor'));
ALTER TABLE "plans" DROP CONSTRAINT "plans_amount_micros_check";
ALTER TABLE "plans" ADD CONSTRAINT "plans_amount_micros_check"
  CHECK ("amount_micros" > 0 OR ("kind" = 'gas_sponsor' AND "amount_micros" = 0));
