-- Plans and their legs. A plan is stored whether prepared or blocked; legs carry the unsigned
-- payload the owner signs, and later the transaction id and what the chain says it moved.
CREATE TABLE "plans" (
  "id" TEXT PRIMARY KEY CHECK ("id" ~ '^plan_[0-9a-f]{32}$'),
  "kind" TEXT NOT NULL CHECK ("kind" IN ('deposit', 'withdraw')),
  "status" TEXT NOT NULL CHECK ("status" IN ('prepared', 'blocked')),
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum')),
  "venue_id" TEXT REFERENCES "venues" ("id"),
  "owner" TEXT,
  "amount_micros" BIGINT NOT NULL CHECK ("amount_micros" > 0),
  "fee_micros" BIGINT NOT NULL CHECK ("fee_micros" >= 0),
  "request" JSONB NOT NULL,
  "blockers" JSONB NOT NULL DEFAULT '[]',
  "submitted" BOOLEAN NOT NULL DEFAULT false,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK (("status" = 'blocked') = (jsonb_array_length("blockers") > 0))
);
CREATE INDEX "plans_owner_created" ON "plans" ("owner", "created_at" DESC);

CREATE TABLE "plan_legs" (
  "plan_id" TEXT NOT NULL REFERENCES "plans" ("id") ON DELETE CASCADE,
  "leg_index" INTEGER NOT NULL CHECK ("leg_index" >= 0),
  "action" TEXT NOT NULL,
  "summary" TEXT NOT NULL,
  "amount_micros" BIGINT NOT NULL CHECK ("amount_micros" >= 0),
  "settles" BOOLEAN NOT NULL,
  "payload" JSONB NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'unsigned'
    CHECK ("status" IN ('unsigned', 'submitted', 'confirmed', 'failed')),
  "tx_id" TEXT,
  "settled_amount_micros" BIGINT,
  "failure_reason" TEXT,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("plan_id", "leg_index")
);
CREATE UNIQUE INDEX "plan_legs_tx" ON "plan_legs" ("tx_id") WHERE "tx_id" IS NOT NULL;
