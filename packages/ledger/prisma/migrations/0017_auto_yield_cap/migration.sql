-- The most a wallet's auto-yield may keep staked (v1 clients' `maxStakeMicros`); NULL = no cap.
-- A route with stake that would take the wallet's staked principal on its chain above it is
-- blocked (`auto_yield_cap_reached`) and moves nothing.
ALTER TABLE "wallet_settings"
  ADD COLUMN "auto_yield_max_stake_micros" BIGINT
    CHECK ("auto_yield_max_stake_micros" IS NULL OR "auto_yield_max_stake_micros" > 0);
