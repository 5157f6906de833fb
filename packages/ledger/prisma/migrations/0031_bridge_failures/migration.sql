-- Bridge failure and rescue (issue 18).
--
-- A bridge whose burn settled but whose attestation did not come within the rail's window, or
-- whose mint reverted, is marked failed: `failed_at` and `failure_reason` are set together, once,
-- and `bridge.failed` goes out through the outbox in the same transaction. The amount stays in
-- the owner's `in_flight` (never redirected). A failed bridge can still be delivered: the rescue
-- mint (to the recipient the burn fixed, the owner) credits through the same delivery, once
-- (`mint_tx_id` and the journal's `bridge-delivery:<planId>` key).
ALTER TABLE "bridge_transfers"
  ADD COLUMN "failed_at" TIMESTAMPTZ(3),
  ADD COLUMN "failure_reason" TEXT,
  ADD CONSTRAINT "bridge_transfers_failure_check"
    CHECK (("failed_at" IS NULL) = ("failure_reason" IS NULL));

-- The expiry scan: transfers neither delivered nor failed.
CREATE INDEX "bridge_transfers_open" ON "bridge_transfers" ("created_at")
  WHERE "mint_tx_id" IS NULL AND "failed_at" IS NULL;
