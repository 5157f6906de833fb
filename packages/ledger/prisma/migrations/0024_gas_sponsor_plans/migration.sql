-- Gas-sponsor plans (issue 17, item 4): a plan of kind `gas_sponsor` tops a wallet's native gas
-- up (approve, swap USDC for wrapped native, unwrap). Its amount is the USDC the top-up sells:
-- 0 when the wallet already holds enough gas, or when the plan is blocked before a price. Its
-- legs move no booked USDC yet (effect `none`). The kinds earlier scripts allow stay allowed
-- (ledger_widen_check, 0023).
SELECT "ledger_widen_check"('plans', 'plans_kind_check', '"kind" = ''gas_sponsor''');
SELECT "ledger_widen_check"('plans', 'plans_amount_micros_check',
                            '"kind" = ''gas_sponsor'' AND "amount_micros" = 0');
