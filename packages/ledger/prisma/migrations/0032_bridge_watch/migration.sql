-- Bridge watch and the bridge fee leg (issue 18).
--
-- The service's bridge fee is a USDC transfer from the owner to the fee recipient, a leg before
-- the burn (effect `bridge_fee`): its receipt books what it proves paid from the source chain's
-- outside to fees:protocol. Where the fee goes and how much the plan asked are kept with the
-- transfer, so settlement reads the receipt against what was prepared (never today's settings).
-- The keeper's bridge watch walks the transfers in flight (burn settled, not delivered): a
-- partial index keeps that walk cheap however many bridges delivered.

SELECT "ledger_widen_check"('plan_legs', 'plan_legs_effect_check', '"effect" = ''bridge_fee''');

ALTER TABLE "bridge_transfers"
  ADD COLUMN "service_fee_micros" BIGINT NOT NULL DEFAULT 0 CHECK ("service_fee_micros" >= 0),
  ADD COLUMN "fee_recipient" TEXT,
  ADD CONSTRAINT "bridge_transfers_fee_recipient_check"
    CHECK ("service_fee_micros" = 0 OR "fee_recipient" IS NOT NULL);

CREATE INDEX "bridge_transfers_undelivered_idx" ON "bridge_transfers" ("created_at", "plan_id")
  WHERE "mint_tx_id" IS NULL;
