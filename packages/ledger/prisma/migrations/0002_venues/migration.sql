-- Venue catalog (seeded from packages/engine's versioned catalog) and APY history.
-- A venue id is bare: lowercase words joined by '-', never 'form-…', never composite.
-- The opportunity id is minted once at first insert and never recomputed.
CREATE TABLE "venues" (
  "id" TEXT PRIMARY KEY
    CHECK ("id" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND "id" NOT LIKE 'form-%'),
  "opportunity_id" TEXT NOT NULL UNIQUE CHECK ("opportunity_id" ~ '^svcop[0-9a-f]{24}$'),
  "protocol" TEXT NOT NULL,
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum')),
  "asset" TEXT NOT NULL,
  "readiness" TEXT NOT NULL CHECK ("readiness" IN ('ready', 'listed', 'planned')),
  "standard" TEXT NOT NULL,
  "wave" INTEGER NOT NULL CHECK ("wave" >= 1),
  "priority" INTEGER NOT NULL,
  "actions" TEXT[] NOT NULL,
  "required_ids" TEXT[] NOT NULL,
  "min_deposit_micros" BIGINT NOT NULL CHECK ("min_deposit_micros" >= 0),
  "catalog_version" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- One row per venue per refresh. An unavailable reading has no value, only a reason.
CREATE TABLE "apy_samples" (
  "id" BIGSERIAL PRIMARY KEY,
  "venue_id" TEXT NOT NULL REFERENCES "venues" ("id") ON DELETE CASCADE,
  "source" TEXT NOT NULL,
  "status" TEXT NOT NULL CHECK ("status" IN ('ok', 'unavailable')),
  "apy_bps" INTEGER,
  "apy_base_bps" INTEGER,
  "apy_reward_bps" INTEGER,
  "tvl_usd_micros" BIGINT,
  "reason" TEXT,
  "observed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK (("status" = 'ok') = ("apy_bps" IS NOT NULL)),
  CHECK (("status" = 'unavailable') = ("reason" IS NOT NULL))
);
CREATE INDEX "apy_samples_venue_observed" ON "apy_samples" ("venue_id", "observed_at" DESC);
