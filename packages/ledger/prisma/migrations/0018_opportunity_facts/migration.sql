-- Opportunity facts beyond APY (issue 26).
--
-- 1. `apy_samples.pool_facts`: what the yields source said of the pool beside its APY in the
--    same reading (outlier flag, exposure, impermanent-loss risk, prediction class, stablecoin,
--    underlying and reward tokens), as JSON the engine parses; null for unavailable readings and
--    for readings stored before this column.
ALTER TABLE "apy_samples" ADD COLUMN "pool_facts" JSONB;

-- 2. `venue_chain_reads`: the latest read of a venue on its chain (native TVL, deposit caps,
--    token decimals), made by the discovery refresh off the request path. One row per venue,
--    replaced on every read; `facts` holds the figures or null with a reason.
CREATE TABLE "venue_chain_reads" (
  "venue_id" TEXT PRIMARY KEY REFERENCES "venues"("id") ON DELETE CASCADE,
  "facts" JSONB NOT NULL,
  "observed_at" TIMESTAMPTZ(3) NOT NULL
);
