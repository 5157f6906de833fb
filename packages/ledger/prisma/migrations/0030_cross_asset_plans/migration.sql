-- Cross-asset route and deposit (issue 17, item 5): a route or deposit plan that takes another
-- token than USDC swaps it first, under the same plan id: its swap leg (effect `swap`) settles
-- from its receipt as a swap plan's does, so the plan keeps the swap parts its swap leg reads
-- (tokens, addresses, quote, minimum out, fee lines). Swap plans still always carry them; a
-- route or deposit plan carries them only when it swaps.
SELECT "ledger_widen_check"('plans', 'plans_swap_shape',
                            '"kind" IN (''route'', ''deposit'') AND "swap" IS NOT NULL');
