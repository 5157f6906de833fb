-- Auto-pay (issue 19, part 4): residual yield paid to payees, never principal.
--
-- A wallet's owner sets a config (percentage of net yield, payees and their weights, trigger,
-- safety limits). Each harvest booked while the config is enabled adds `net × percentage` to
-- the position's yield pool (`auto_pay_yield.accrued_centimicros`, in hundredths of a micro so
-- the percentage never rounds), in the harvest's own transaction (trigger on `harvests`). A run
-- commits what it pays (`committed_micros`); the legs it prepared keep that figure true as they
-- settle, fail, expire or are cancelled (trigger on `plan_legs`). What is payable is the pool
-- less what is committed: the books pay only yield harvest booked, never more.
--
-- The money itself: the run's withdraw leg (effect `unstake_yield`) moves what the venue paid
-- the owner from `staked:<opportunityId>` into the wallet's `auto_pay` bucket; each transfer leg
-- (effect `pay_out`) moves what its receipt proves the payee received from `auto_pay` to
-- `external:<chain>`. Nothing moves at prepare time.

-- Other migrations extend the same lists (kinds, effects, buckets): each is widened with OR so
-- whatever an earlier or later script allowed stays allowed.
CREATE FUNCTION "ledger_widen_check"("p_table" TEXT, "p_constraint" TEXT, "p_extra" TEXT)
RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  v_def TEXT;
BEGIN
  SELECT pg_get_constraintdef(c.oid) INTO v_def FROM pg_constraint c
  WHERE c.conname = "p_constraint" AND c.conrelid = "p_table"::regclass;
  IF v_def IS NULL THEN
    RAISE EXCEPTION 'no constraint % on %', "p_constraint", "p_table";
  END IF;
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', "p_table", "p_constraint");
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK ((%s) OR (%s))', "p_table",
                 "p_constraint", substring(v_def FROM '^CHECK \((.*)\)$'), "p_extra");
END;
$$;

SELECT "ledger_widen_check"('plans', 'plans_kind_check', '"kind" = ''auto_pay''');
SELECT "ledger_widen_check"('plan_legs', 'plan_legs_effect_check',
                            '"effect" IN (''unstake_yield'', ''pay_out'')');
SELECT "ledger_widen_check"('ledger_accounts', 'ledger_accounts_check',
                            '"kind" = ''wallet'' AND "bucket" = ''auto_pay''');

CREATE TABLE "auto_pay_configs" (
  "wallet" TEXT PRIMARY KEY,
  "enabled" BOOLEAN NOT NULL,
  "percentage" SMALLINT NOT NULL CHECK ("percentage" BETWEEN 0 AND 100),
  -- [{ payeeId, address, weightBps }], weights summing to 10000 (checked by the engine too).
  "payees" JSONB NOT NULL CHECK (jsonb_typeof("payees") = 'array'),
  "trigger" TEXT NOT NULL CHECK ("trigger" IN ('after_harvest', 'manual', 'threshold')),
  "min_amount_micros" BIGINT NOT NULL CHECK ("min_amount_micros" >= 0),
  "max_per_payee_per_day_micros" BIGINT CHECK ("max_per_payee_per_day_micros" > 0),
  "dust_micros" BIGINT NOT NULL CHECK ("dust_micros" >= 0),
  "emergency_pause" BOOLEAN NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL
);

CREATE TABLE "auto_pay_yield" (
  "wallet" TEXT NOT NULL,
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum')),
  "opportunity_id" TEXT NOT NULL CHECK ("opportunity_id" ~ '^svcop[0-9a-f]{24}$'),
  -- Σ harvest net × percentage: hundredths of a micro.
  "accrued_centimicros" NUMERIC(40, 0) NOT NULL DEFAULT 0 CHECK ("accrued_centimicros" >= 0),
  -- What runs took of it: open withdraw legs' amounts, settled ones' proven amounts.
  "committed_micros" BIGINT NOT NULL DEFAULT 0 CHECK ("committed_micros" >= 0),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("wallet", "chain", "opportunity_id")
);

CREATE TABLE "auto_pay_runs" (
  "plan_id" TEXT PRIMARY KEY REFERENCES "plans" ("id"),
  "wallet" TEXT NOT NULL,
  "chain" TEXT NOT NULL,
  "opportunity_id" TEXT NOT NULL,
  "amount_micros" BIGINT NOT NULL CHECK ("amount_micros" > 0),
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  FOREIGN KEY ("wallet", "chain", "opportunity_id")
    REFERENCES "auto_pay_yield" ("wallet", "chain", "opportunity_id")
);

CREATE TABLE "auto_pay_payouts" (
  "plan_id" TEXT NOT NULL REFERENCES "auto_pay_runs" ("plan_id"),
  "leg_index" INTEGER NOT NULL,
  "wallet" TEXT NOT NULL,
  "payee_id" TEXT NOT NULL,
  "address" TEXT NOT NULL,
  "weight_bps" INTEGER NOT NULL CHECK ("weight_bps" BETWEEN 1 AND 10000),
  "amount_micros" BIGINT NOT NULL CHECK ("amount_micros" > 0),
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY ("plan_id", "leg_index"),
  FOREIGN KEY ("plan_id", "leg_index") REFERENCES "plan_legs" ("plan_id", "leg_index")
);
-- The daily cap reads a payee's payouts of the last 24 hours.
CREATE INDEX "auto_pay_payouts_payee" ON "auto_pay_payouts" ("wallet", "address", "created_at");

-- A harvest booked while the wallet's config is enabled accrues net × percentage, in the
-- harvest's statement (ledger_record_harvests inserts the row).
CREATE FUNCTION "auto_pay_accrue"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "auto_pay_yield" AS y ("wallet", "chain", "opportunity_id",
                                     "accrued_centimicros", "updated_at")
  SELECT NEW."wallet", NEW."chain", NEW."opportunity_id",
         NEW."net_micros"::NUMERIC * c."percentage", NEW."created_at"
  FROM "auto_pay_configs" c
  WHERE c."wallet" = NEW."wallet" AND c."enabled" AND c."percentage" > 0
  ON CONFLICT ("wallet", "chain", "opportunity_id") DO UPDATE
    SET "accrued_centimicros" = y."accrued_centimicros" + EXCLUDED."accrued_centimicros",
        "updated_at" = EXCLUDED."updated_at";
  RETURN NULL;
END;
$$;
CREATE TRIGGER "harvests_auto_pay_accrue" AFTER INSERT ON "harvests"
  FOR EACH ROW EXECUTE FUNCTION "auto_pay_accrue"();

-- What a run's withdraw leg holds of the pool: its amount while open, what the receipt proved
-- once confirmed, nothing once it failed, expired or was cancelled (a late landing of an
-- expired leg counts again, from its receipt).
CREATE FUNCTION "auto_pay_leg_commitment"("p_status" TEXT, "p_released" BOOLEAN,
                                          "p_amount" BIGINT, "p_settled" BIGINT)
RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN "p_status" = 'confirmed' THEN COALESCE("p_settled", 0)
    WHEN "p_status" IN ('unsigned', 'submitted') AND NOT "p_released" THEN "p_amount"
    ELSE 0 END
$$;

CREATE FUNCTION "auto_pay_follow_leg"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_delta BIGINT;
BEGIN
  v_delta := auto_pay_leg_commitment(NEW."status", NEW."released_at" IS NOT NULL,
                                     NEW."amount_micros", NEW."settled_amount_micros")
           - auto_pay_leg_commitment(OLD."status", OLD."released_at" IS NOT NULL,
                                     OLD."amount_micros", OLD."settled_amount_micros");
  IF v_delta <> 0 THEN
    UPDATE "auto_pay_yield" y
    SET "committed_micros" = y."committed_micros" + v_delta, "updated_at" = now()
    FROM "auto_pay_runs" r
    WHERE r."plan_id" = NEW."plan_id" AND y."wallet" = r."wallet" AND y."chain" = r."chain"
      AND y."opportunity_id" = r."opportunity_id";
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "plan_legs_auto_pay_follow" AFTER UPDATE ON "plan_legs"
  FOR EACH ROW WHEN (NEW."effect" = 'unstake_yield') EXECUTE FUNCTION "auto_pay_follow_leg"();

-- The event a settled transfer leg writes: `auto_pay.paid` (what the receipt proved the payee
-- received). Subscriptions may name it with the eight earlier types.
SELECT "ledger_widen_check"('outbox_events', 'outbox_events_type_check',
                            '"type" = ''auto_pay.paid''');
SELECT "ledger_widen_check"('webhook_subscriptions', 'webhook_subscriptions_event_types_check',
  'cardinality("event_types") BETWEEN 1 AND 9 AND "event_types" <@ ARRAY[''deposit.settled'',
   ''withdraw.settled'', ''harvest.completed'', ''bridge.delivered'', ''bridge.failed'',
   ''position.updated'', ''apy.updated'', ''reconciliation.drift'', ''auto_pay.paid'']::TEXT[]');
