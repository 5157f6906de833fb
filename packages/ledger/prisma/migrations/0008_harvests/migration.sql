-- Harvests: each one records the venue position value read on chain, the ledger basis it was
-- measured against, and how the gross yield was split (packages/fees). The journal entry it
-- points at posts external → fees:protocol (skim + profit fee) and external → staked (net).
--
-- The fees stay inside the venue position on chain until the protocol collects them, so a
-- position's basis is its staked balance plus the fees booked on it: the next harvest's gross
-- is value − basis, and a fee is never counted as yield twice.
CREATE TABLE "harvests" (
  "id" TEXT PRIMARY KEY CHECK ("id" ~ '^hvst_[0-9a-f]{32}$'),
  "wallet" TEXT NOT NULL,
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum')),
  "opportunity_id" TEXT NOT NULL CHECK ("opportunity_id" ~ '^svcop[0-9a-f]{24}$'),
  "venue_id" TEXT NOT NULL REFERENCES "venues" ("id"),
  "entry_id" BIGINT NOT NULL UNIQUE REFERENCES "journal_entries" ("id"),
  "value_micros" BIGINT NOT NULL CHECK ("value_micros" > 0),
  "value_as_of" TIMESTAMPTZ(3) NOT NULL,
  "basis_micros" BIGINT NOT NULL CHECK ("basis_micros" >= 0),
  "gross_micros" BIGINT NOT NULL CHECK ("gross_micros" > 0),
  "protocol_fee_micros" BIGINT NOT NULL CHECK ("protocol_fee_micros" >= 0),
  "profit_fee_micros" BIGINT NOT NULL CHECK ("profit_fee_micros" >= 0),
  "net_micros" BIGINT NOT NULL CHECK ("net_micros" > 0),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK ("gross_micros" = "value_micros" - "basis_micros"),
  CHECK ("protocol_fee_micros" + "profit_fee_micros" + "net_micros" = "gross_micros")
);
CREATE INDEX "harvests_position" ON "harvests" ("wallet", "chain", "opportunity_id");
CREATE TRIGGER "harvests_append_only" BEFORE UPDATE OR DELETE ON "harvests"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
