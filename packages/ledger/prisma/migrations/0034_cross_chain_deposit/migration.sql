-- Cross-chain deposit (issue 18, item 5): one deposit plan (or route with stake) bridges,
-- then deposits, under one plan id. Its bridge legs (the service fee transfer, the burn) run on the source chain and its
-- deposit legs on the venue's chain (the plan's), so a leg may name its own chain; null: the
-- plan's chain, as every leg before.
--
-- The deposit leg (effect `bridged_stake`) deposits what the bridge delivered: it settles only
-- once the plan's bridge transfer is delivered, for at least the leg's amount, and moves what
-- its receipt proves from the owner's `liquid` on the venue's chain (credited by the delivery)
-- into the venue — never from the chain's outside a second time.

ALTER TABLE "plan_legs"
  ADD COLUMN "chain" TEXT CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum'));

SELECT "ledger_widen_check"('plan_legs', 'plan_legs_effect_check', '"effect" = ''bridged_stake''');
