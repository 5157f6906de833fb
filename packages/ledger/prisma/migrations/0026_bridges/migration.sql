-- Bridges (issue 18, first slice: Circle CCTP v2 between the EVM chains).
--
-- A bridge plan (kind `bridge`) is prepared on its source chain; its burn leg (effect
-- `bridge_burn`) settles from the burn receipt and moves what the receipt burned into the
-- owner's `in_flight` on the source chain (from `liquid` there as far as the books hold it, the
-- rest from the chain: the owner's wallet paid it). Never to the destination: only a confirmed
-- mint of this plan's message to the owner credits `liquid` on the destination chain, with the
-- amount the mint receipt proves; what the rail kept goes to the destination chain's outside.
-- `bridge_transfers` holds what the plan bridges and, once delivered, which mint delivered it
-- (one delivery per plan, one plan per mint transaction).

-- The kinds and effects earlier scripts allow stay allowed (ledger_widen_check, 0023).
SELECT "ledger_widen_check"('plans', 'plans_kind_check', '"kind" = ''bridge''');
SELECT "ledger_widen_check"('plan_legs', 'plan_legs_effect_check', '"effect" = ''bridge_burn''');

CREATE TABLE "bridge_transfers" (
  "plan_id" TEXT PRIMARY KEY REFERENCES "plans" ("id") ON DELETE CASCADE,
  "rail" TEXT NOT NULL CHECK ("rail" IN ('cctp')),
  "speed" TEXT NOT NULL CHECK ("speed" IN ('standard', 'fast')),
  "source_chain" TEXT NOT NULL CHECK ("source_chain" IN ('sui', 'solana', 'base', 'arbitrum')),
  "dest_chain" TEXT NOT NULL CHECK ("dest_chain" IN ('sui', 'solana', 'base', 'arbitrum')
                                    AND "dest_chain" <> "source_chain"),
  "owner" TEXT NOT NULL,
  -- Where the mint must credit: the owner's own address on the destination chain.
  "recipient" TEXT NOT NULL,
  "burn_micros" BIGINT NOT NULL CHECK ("burn_micros" > 0),
  "max_rail_fee_micros" BIGINT NOT NULL CHECK ("max_rail_fee_micros" >= 0
                                               AND "max_rail_fee_micros" < "burn_micros"),
  "min_received_micros" BIGINT NOT NULL CHECK ("min_received_micros" > 0),
  -- Set together by the delivery that credited the destination.
  "message_nonce" TEXT,
  "mint_tx_id" TEXT UNIQUE,
  "delivered_micros" BIGINT CHECK ("delivered_micros" > 0),
  "delivered_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK (("mint_tx_id" IS NULL) = ("delivered_at" IS NULL)
         AND ("mint_tx_id" IS NULL) = ("delivered_micros" IS NULL))
);
