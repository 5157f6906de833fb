-- Double-entry ledger. Accounts per (wallet, chain, bucket) plus system accounts; journal
-- entries whose postings sum to zero (checked at commit by a deferred constraint trigger);
-- balances kept by a trigger on postings, wallet balances never negative (CHECK). Entries and
-- postings are append-only: a correction is a new entry.
CREATE TABLE "ledger_accounts" (
  "id" BIGSERIAL PRIMARY KEY,
  "kind" TEXT NOT NULL CHECK ("kind" IN ('wallet', 'system')),
  "wallet" TEXT,
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum', 'all')),
  "bucket" TEXT NOT NULL CHECK (
    "bucket" ~ '^(liquid|pending_in|pending_out|in_flight|staked:svcop[0-9a-f]{24})$'
    OR ("kind" = 'system' AND "bucket" IN ('external', 'fees:protocol'))
  ),
  "balance_micros" BIGINT NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK (("kind" = 'wallet') = ("wallet" IS NOT NULL)),
  CHECK ("kind" = 'system' OR "chain" <> 'all'),
  -- System accounts are the other side of every credit and debit: `external:<chain>` runs
  -- negative by what has come in from the chain; nothing a wallet owns can.
  CHECK ("kind" = 'system' OR "balance_micros" >= 0),
  UNIQUE NULLS NOT DISTINCT ("wallet", "chain", "bucket")
);
CREATE INDEX "ledger_accounts_wallet" ON "ledger_accounts" ("wallet") WHERE "wallet" IS NOT NULL;

CREATE TABLE "journal_entries" (
  "id" BIGSERIAL PRIMARY KEY,
  "kind" TEXT NOT NULL,
  -- Makes a write idempotent: the same key never posts twice (e.g. `settle:<chain>:<txId>`).
  "dedupe_key" TEXT UNIQUE,
  "plan_id" TEXT REFERENCES "plans" ("id"),
  "leg_index" INTEGER,
  "tx_id" TEXT,
  "memo" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "journal_entries_plan" ON "journal_entries" ("plan_id") WHERE "plan_id" IS NOT NULL;

CREATE TABLE "postings" (
  "id" BIGSERIAL PRIMARY KEY,
  "entry_id" BIGINT NOT NULL REFERENCES "journal_entries" ("id"),
  "account_id" BIGINT NOT NULL REFERENCES "ledger_accounts" ("id"),
  "amount_micros" BIGINT NOT NULL CHECK ("amount_micros" <> 0)
);
CREATE INDEX "postings_entry" ON "postings" ("entry_id");
CREATE INDEX "postings_account" ON "postings" ("account_id");

-- Balance upkeep: each posting moves its account's balance in the same statement, so the
-- CHECK on ledger_accounts refuses an overdraft at once.
CREATE FUNCTION "ledger_apply_posting"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "ledger_accounts" SET "balance_micros" = "balance_micros" + NEW."amount_micros"
  WHERE "id" = NEW."account_id";
  RETURN NEW;
END;
$$;
CREATE TRIGGER "postings_apply" AFTER INSERT ON "postings"
  FOR EACH ROW EXECUTE FUNCTION "ledger_apply_posting"();

-- At commit: every entry touched has at least two postings and they sum to zero.
CREATE FUNCTION "ledger_check_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total NUMERIC;
  legs INTEGER;
BEGIN
  SELECT COALESCE(SUM("amount_micros"), 0), COUNT(*) INTO total, legs
  FROM "postings" WHERE "entry_id" = NEW."entry_id";
  IF legs < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'journal entry % is unbalanced: % postings summing to %',
      NEW."entry_id", legs, total USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER "postings_balanced" AFTER INSERT ON "postings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_entry"();

-- Append-only: entries and postings are never updated or deleted.
CREATE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: post a correcting entry instead', TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER "postings_append_only" BEFORE UPDATE OR DELETE ON "postings"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
CREATE TRIGGER "journal_entries_append_only" BEFORE UPDATE OR DELETE ON "journal_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
-- The balance column only moves through postings.
CREATE FUNCTION "ledger_balance_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 AND NEW."balance_micros" IS DISTINCT FROM OLD."balance_micros" THEN
    RAISE EXCEPTION 'ledger_accounts.balance_micros moves only through postings'
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "ledger_accounts_balance_guard" BEFORE UPDATE ON "ledger_accounts"
  FOR EACH ROW EXECUTE FUNCTION "ledger_balance_guard"();
