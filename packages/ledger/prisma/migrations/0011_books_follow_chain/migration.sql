-- The books follow the chain (DESIGN §3, §4).
--
-- 1. Legs: a leg is moved only by a receipt that proves it. Two new states release a leg's
--    reservation without closing it: `expired` (unsigned past its TTL, or submitted and still
--    pending past the keeper's window) and `cancelled` (the owner cancelled an unsigned plan).
--    Either stays confirmable by a transaction the chain proves is the leg's own. `confirmed`
--    and `failed` are final. A leg records the shares its receipt proved and, when the chain
--    moved an amount outside the leg's bounds, why it is flagged for review.
-- 2. Positions: per (wallet, chain, opportunity) the venue shares our settled legs minted (less
--    those they burned), the mark (what the books have recognised those shares to be worth:
--    the staked balance plus the fees harvests left inside the position) and a version that
--    every change bumps, so a harvest books only yield the venue's share price proves, measured
--    against a mark nothing moved while the price was read.
-- 3. The database refuses what must never exist: a journal entry without postings, a
--    reservation without the leg that holds it, a leg settled twice, a leg leaving its open
--    state with its reservation still held, a final leg changing.

-- ── 1. Legs ──────────────────────────────────────────────────────────────
ALTER TABLE "plan_legs" DROP CONSTRAINT "plan_legs_status_check";
ALTER TABLE "plan_legs" ADD CONSTRAINT "plan_legs_status_check" CHECK (
  "status" IN ('unsigned', 'submitted', 'confirmed', 'failed', 'expired', 'cancelled'));
-- Shares of the venue the receipt proved minted (deposit) or burned (withdraw); null for
-- router legs and legs not settled.
ALTER TABLE "plan_legs" ADD COLUMN "shares" NUMERIC(78, 0) CHECK ("shares" >= 0);
-- The amounts a receipt may prove without review; null = exactly the quoted amount.
ALTER TABLE "plan_legs" ADD COLUMN "min_settle_micros" BIGINT CHECK ("min_settle_micros" >= 0);
ALTER TABLE "plan_legs" ADD COLUMN "max_settle_micros" BIGINT CHECK ("max_settle_micros" >= 0);
-- Set when the chain moved an amount outside the bounds (the books hold what the chain moved).
ALTER TABLE "plan_legs" ADD COLUMN "review_reason" TEXT;
-- When the leg's reservation went back (expired or cancelled); a late landing settles from
-- where the money went back to.
ALTER TABLE "plan_legs" ADD COLUMN "released_at" TIMESTAMPTZ(3);
ALTER TABLE "plan_legs" ADD CONSTRAINT "plan_legs_released_shape" CHECK (
  "status" NOT IN ('expired', 'cancelled') OR "released_at" IS NOT NULL);
-- Expired and cancelled legs that carry a transaction: watched for a late landing.
CREATE INDEX "plan_legs_released_tx" ON "plan_legs" ("updated_at")
  WHERE "status" IN ('expired', 'cancelled') AND "tx_id" IS NOT NULL;
-- Unsigned legs by plan age (their TTL).
CREATE INDEX "plans_prepared_created" ON "plans" ("created_at") WHERE "status" = 'prepared';

-- A final leg never changes: confirmed and failed keep their status, transaction and amount.
-- A released leg never reopens.
CREATE FUNCTION "ledger_leg_transition"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."status" IN ('confirmed', 'failed') AND (
       NEW."status" IS DISTINCT FROM OLD."status" OR NEW."tx_id" IS DISTINCT FROM OLD."tx_id"
       OR NEW."settled_amount_micros" IS DISTINCT FROM OLD."settled_amount_micros") THEN
    RAISE EXCEPTION 'leg %/% is % and final', OLD."plan_id", OLD."leg_index", OLD."status"
      USING ERRCODE = 'YR002';
  END IF;
  IF OLD."status" IN ('expired', 'cancelled') AND NEW."status" IN ('unsigned', 'submitted') THEN
    RAISE EXCEPTION 'leg %/% is % and cannot reopen', OLD."plan_id", OLD."leg_index",
      OLD."status" USING ERRCODE = 'YR002';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "plan_legs_transition"
  BEFORE UPDATE OF "status", "tx_id", "settled_amount_micros" ON "plan_legs"
  FOR EACH ROW WHEN (OLD."status" NOT IN ('unsigned', 'submitted'))
  EXECUTE FUNCTION "ledger_leg_transition"();

-- A leg that held a reservation leaves its open state only with the entry that settles or
-- releases it, in the same transaction (checked at commit).
CREATE FUNCTION "ledger_check_leg_released"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM "journal_entries" e
    WHERE e."plan_id" = NEW."plan_id" AND e."leg_index" = NEW."leg_index"
      AND (e."kind" LIKE '%.settled' OR e."kind" LIKE '%.released')) THEN
    RAISE EXCEPTION 'leg %/% became % with its reservation still held', NEW."plan_id",
      NEW."leg_index", NEW."status" USING ERRCODE = 'YR003';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER "plan_legs_reservation_released" AFTER UPDATE OF "status" ON "plan_legs"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."status" IN ('unsigned', 'submitted') AND NEW."status" NOT IN ('unsigned', 'submitted')
        AND NEW."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid'))
  EXECUTE FUNCTION "ledger_check_leg_released"();

-- ── 2. Journal rules ─────────────────────────────────────────────────────
-- An entry without postings (the balance check hangs off postings, so none ran for it):
-- checked at commit. (A commit-time refusal inside a Prisma transaction leaves the adapter's
-- connection unreleased, so the rules the code can break are checked inside the statement.)
CREATE FUNCTION "ledger_check_entry_posted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_postings BIGINT;
BEGIN
  v_postings := (SELECT COUNT(*) FROM "postings" WHERE "entry_id" = NEW."id");
  IF v_postings < 2 THEN
    RAISE EXCEPTION 'journal entry % is unbalanced: % posting(s)', NEW."id", v_postings
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER "journal_entries_posted" AFTER INSERT ON "journal_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_check_entry_posted"();

-- A reservation without its leg, refused in the statement that posts it: an entry that moves a
-- wallet's pending_in or pending_out must name a plan with a leg that reserves (fund_liquid,
-- fund_staked, exit_liquid) — the leg it settles or releases (leg_index), or, for the
-- reservation itself, an open one.
CREATE FUNCTION "ledger_check_reservations"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_entry BIGINT;
BEGIN
  SELECT e."id" INTO v_entry
  FROM (SELECT DISTINCT n."entry_id" FROM "new_postings" n
        JOIN "ledger_accounts" a ON a."id" = n."account_id"
        WHERE a."bucket" IN ('pending_in', 'pending_out')) p
  JOIN "journal_entries" e ON e."id" = p."entry_id"
  WHERE NOT EXISTS (
    SELECT 1 FROM "plan_legs" l
    WHERE l."plan_id" = e."plan_id"
      AND l."effect" IN ('fund_liquid', 'fund_staked', 'exit_liquid')
      AND (l."leg_index" = e."leg_index"
           OR (e."leg_index" IS NULL AND l."status" IN ('unsigned', 'submitted'))))
  LIMIT 1;
  IF v_entry IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % moves a reservation without the leg that holds it', v_entry
      USING ERRCODE = 'YR003';
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "postings_reservations" AFTER INSERT ON "postings"
  REFERENCING NEW TABLE AS "new_postings"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_check_reservations"();

-- A leg settles once and releases once.
CREATE UNIQUE INDEX "journal_entries_leg_settled" ON "journal_entries" ("plan_id", "leg_index")
  WHERE "kind" LIKE '%.settled';
CREATE UNIQUE INDEX "journal_entries_leg_released" ON "journal_entries" ("plan_id", "leg_index")
  WHERE "kind" LIKE '%.released';

-- ── 3. Positions ─────────────────────────────────────────────────────────
CREATE TABLE "positions" (
  "wallet" TEXT NOT NULL,
  "chain" TEXT NOT NULL CHECK ("chain" IN ('sui', 'solana', 'base', 'arbitrum')),
  "opportunity_id" TEXT NOT NULL CHECK ("opportunity_id" ~ '^svcop[0-9a-f]{24}$'),
  "venue_id" TEXT NOT NULL REFERENCES "venues" ("id"),
  -- Venue shares our settled legs minted less those they burned.
  "shares" NUMERIC(78, 0) NOT NULL DEFAULT 0 CHECK ("shares" >= 0),
  -- False for a position that predates share tracking: its shares are unknown until it is
  -- exited and entered again; a harvest of it is unavailable.
  "shares_known" BOOLEAN NOT NULL DEFAULT true,
  -- What the books have recognised the shares to be worth: staked balance + fees retained.
  "mark_micros" BIGINT NOT NULL DEFAULT 0 CHECK ("mark_micros" >= 0),
  -- Fees harvests booked that are still inside the position on chain.
  "fees_retained_micros" BIGINT NOT NULL DEFAULT 0 CHECK ("fees_retained_micros" >= 0),
  "version" BIGINT NOT NULL DEFAULT 0,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("wallet", "chain", "opportunity_id"),
  CHECK ("fees_retained_micros" <= "mark_micros")
);
-- Reconciliation pages through positions in byte order.
CREATE INDEX "positions_keyset" ON "positions" ("wallet" COLLATE "C", "chain", "opportunity_id");

INSERT INTO "positions" ("wallet", "chain", "opportunity_id", "venue_id", "shares",
                         "shares_known", "mark_micros", "fees_retained_micros")
SELECT a."wallet", a."chain", v."opportunity_id", v."id", 0, false,
       a."balance_micros" + COALESCE(h."fees", 0), COALESCE(h."fees", 0)
FROM "ledger_accounts" a
JOIN "venues" v ON a."bucket" = 'staked:' || v."opportunity_id"
LEFT JOIN (SELECT "wallet", "chain", "opportunity_id",
                  SUM("protocol_fee_micros" + "profit_fee_micros") AS "fees"
           FROM "harvests" GROUP BY 1, 2, 3) h
  ON h."wallet" = a."wallet" AND h."chain" = a."chain" AND h."opportunity_id" = v."opportunity_id"
WHERE a."kind" = 'wallet' AND a."balance_micros" > 0;

-- The harvest's basis is now the position's mark; it also records the shares it valued and the
-- money on the venue our plans did not put there (reported, never skimmed).
ALTER TABLE "harvests" ADD COLUMN "shares" NUMERIC(78, 0);
ALTER TABLE "harvests" ADD COLUMN "untracked_micros" BIGINT CHECK ("untracked_micros" >= 0);

-- ── 4. Recording outcomes ────────────────────────────────────────────────
-- The outbox events of the items numbered `p_ords` (1-based) of a batch, each item carrying
-- `events: [{ id, type, wallet, payload }]` and `now`: in item order, then event order.
CREATE FUNCTION "ledger_insert_item_events"("p_items" JSONB, "p_ords" INTEGER[])
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "outbox_events" ("id", "type", "wallet", "payload", "created_at")
  SELECT v.x ->> 'id', v.x ->> 'type', v.x ->> 'wallet', v.x -> 'payload',
         (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n),
       jsonb_array_elements(t.e -> 'events') WITH ORDINALITY AS v(x, m)
  WHERE t.n::INTEGER = ANY("p_ords")
  ORDER BY t.n, v.m;
END;
$$;

-- ledger_record_leg_outcomes(p_outcomes): a JSON array of
--   { planId, legIndex, txId?, status: 'confirmed' | 'failed' | 'expired' | 'cancelled',
--     expect: [statuses the caller computed the outcome from], settledAmount?, shares?,
--     reason?, reviewReason?, released?, now,
--     takeover?: { planId, legIndex }   -- a leg holding txId the receipt proved is not its own
--     position?: { wallet, chain, opportunityId, venueId, version, shares, mark, feesRetained },
--     entry?: <a ledger_post_entries entry>, events: [{ id, type, wallet, payload }] }
-- and one row per outcome, in order. Locks: legs (and the legs to take a claim from) in key
-- order, then positions in key order, then accounts (ledger_post_entries). An outcome is
-- written only when its leg is still in one of `expect` and its position still at `version`
-- (else `stale`: nothing written, the caller reads again); a leg already final is reported
-- (`final`). All or nothing across the batch for errors (an overdraft, a claimed txId).
DROP FUNCTION "ledger_record_leg_outcome"(JSONB);
DROP FUNCTION "ledger_record_leg_outcomes"(JSONB);
CREATE FUNCTION "ledger_record_leg_outcomes"("p_outcomes" JSONB)
RETURNS TABLE ("ord" INTEGER, "final" BOOLEAN, "stale" BOOLEAN, "status" TEXT, "tx_id" TEXT,
               "settled_amount_micros" BIGINT, "failure_reason" TEXT)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_plans TEXT[];
  v_legs INTEGER[];
  v_stale INTEGER[];
  v_claimed INTEGER[];
  v_locked INTEGER;
  v_missing TEXT;
BEGIN
  SELECT array_agg(k.p ORDER BY k.p, k.i), array_agg(k.i ORDER BY k.p, k.i)
  INTO v_plans, v_legs
  FROM (SELECT t.e ->> 'planId' AS p, (t.e ->> 'legIndex')::INTEGER AS i
        FROM jsonb_array_elements("p_outcomes") t(e)
        UNION
        SELECT t.e -> 'takeover' ->> 'planId', (t.e -> 'takeover' ->> 'legIndex')::INTEGER
        FROM jsonb_array_elements("p_outcomes") t(e)
        WHERE jsonb_typeof(t.e -> 'takeover') = 'object') k;

  PERFORM 1 FROM "plan_legs" l
  WHERE l."plan_id" = ANY(v_plans)
    AND (l."plan_id", l."leg_index") IN (SELECT * FROM unnest(v_plans, v_legs))
  ORDER BY l."plan_id", l."leg_index"
  FOR UPDATE;
  GET DIAGNOSTICS v_locked = ROW_COUNT;
  IF v_locked < cardinality(v_plans) THEN
    SELECT format('%s/%s', u.p, u.i) INTO v_missing
    FROM unnest(v_plans, v_legs) AS u(p, i)
    WHERE NOT EXISTS (SELECT 1 FROM "plan_legs" l WHERE l."plan_id" = u.p AND l."leg_index" = u.i)
    LIMIT 1;
    RAISE EXCEPTION 'leg % does not exist', v_missing USING ERRCODE = 'no_data_found';
  END IF;

  -- Positions: created when new, locked in key order; an outcome whose position moved since
  -- the caller read it (or that a earlier outcome of this batch moves) is stale.
  INSERT INTO "positions" ("wallet", "chain", "opportunity_id", "venue_id")
  SELECT DISTINCT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
         t.e -> 'position' ->> 'opportunityId', t.e -> 'position' ->> 'venueId'
  FROM jsonb_array_elements("p_outcomes") t(e)
  WHERE jsonb_typeof(t.e -> 'position') = 'object'
  ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "positions" p
  WHERE (p."wallet", p."chain", p."opportunity_id") IN (
    SELECT t.e -> 'position' ->> 'wallet', t.e -> 'position' ->> 'chain',
           t.e -> 'position' ->> 'opportunityId'
    FROM jsonb_array_elements("p_outcomes") t(e)
    WHERE jsonb_typeof(t.e -> 'position') = 'object')
  ORDER BY p."wallet", p."chain", p."opportunity_id"
  FOR UPDATE;
  SELECT COALESCE(array_agg(x.n), '{}') INTO v_stale
  FROM (
    SELECT t.n::INTEGER AS n,
           row_number() OVER (PARTITION BY t.e -> 'position' ->> 'wallet',
                              t.e -> 'position' ->> 'chain', t.e -> 'position' ->> 'opportunityId'
                              ORDER BY t.n) AS r,
           p."version" <> (t.e -> 'position' ->> 'version')::BIGINT AS moved
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY t(e, n)
    JOIN "positions" p
      ON p."wallet" = t.e -> 'position' ->> 'wallet' AND p."chain" = t.e -> 'position' ->> 'chain'
     AND p."opportunity_id" = t.e -> 'position' ->> 'opportunityId'
    WHERE jsonb_typeof(t.e -> 'position') = 'object') x
  WHERE x.moved OR x.r > 1;

  -- A transaction the receipt proved is this leg's: the leg that claimed it gives it up.
  UPDATE "plan_legs" l
  SET "tx_id" = NULL,
      "status" = CASE WHEN l."status" = 'submitted' THEN 'unsigned' ELSE l."status" END,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  WHERE jsonb_typeof(t.e -> 'takeover') = 'object' AND NOT (t.n::INTEGER = ANY(v_stale))
    AND l."plan_id" = ANY(v_plans)
    AND l."plan_id" = t.e -> 'takeover' ->> 'planId'
    AND l."leg_index" = (t.e -> 'takeover' ->> 'legIndex')::INTEGER
    AND l."tx_id" = t.e ->> 'txId' AND l."status" NOT IN ('confirmed', 'failed');

  WITH claimed AS (
    UPDATE "plan_legs" l
    SET "status" = t.e ->> 'status',
        "tx_id" = COALESCE(t.e ->> 'txId', l."tx_id"),
        "settled_amount_micros" = (t.e ->> 'settledAmount')::BIGINT,
        "shares" = (t.e ->> 'shares')::NUMERIC,
        "failure_reason" = t.e ->> 'reason',
        "review_reason" = t.e ->> 'reviewReason',
        "released_at" = CASE WHEN (t.e ->> 'released')::BOOLEAN
                             THEN (t.e ->> 'now')::TIMESTAMPTZ ELSE l."released_at" END,
        "settled_at" = CASE WHEN t.e ->> 'status' IN ('confirmed', 'failed')
                            THEN (t.e ->> 'now')::TIMESTAMPTZ ELSE l."settled_at" END,
        "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE l."plan_id" = ANY(v_plans)
      AND l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
      AND l."status" IN (SELECT jsonb_array_elements_text(t.e -> 'expect'))
      AND NOT (t.n::INTEGER = ANY(v_stale))
    RETURNING t.n::INTEGER AS "ord"
  )
  SELECT COALESCE(array_agg(c."ord"), '{}') INTO v_claimed FROM claimed c;

  PERFORM 1 FROM ledger_post_entries((
    SELECT COALESCE(jsonb_agg(t.e -> 'entry' ORDER BY t.n), '[]')
    FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
    WHERE t.n::INTEGER = ANY(v_claimed) AND jsonb_typeof(t.e -> 'entry') = 'object'));

  UPDATE "positions" p
  SET "shares" = (t.e -> 'position' ->> 'shares')::NUMERIC,
      "mark_micros" = (t.e -> 'position' ->> 'mark')::BIGINT,
      "fees_retained_micros" = (t.e -> 'position' ->> 'feesRetained')::BIGINT,
      "version" = p."version" + 1,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  WHERE t.n::INTEGER = ANY(v_claimed) AND jsonb_typeof(t.e -> 'position') = 'object'
    AND p."wallet" = t.e -> 'position' ->> 'wallet' AND p."chain" = t.e -> 'position' ->> 'chain'
    AND p."opportunity_id" = t.e -> 'position' ->> 'opportunityId';

  PERFORM ledger_insert_item_events("p_outcomes", v_claimed);
  -- Checked now, not at commit: a caller's transaction then rolls back cleanly.
  SET CONSTRAINTS "plan_legs_reservation_released", "journal_entries_posted" IMMEDIATE;

  RETURN QUERY
  SELECT t.n::INTEGER,
         NOT (t.n::INTEGER = ANY(v_claimed)) AND l."status" IN ('confirmed', 'failed'),
         NOT (t.n::INTEGER = ANY(v_claimed)) AND l."status" NOT IN ('confirmed', 'failed'),
         l."status", l."tx_id", l."settled_amount_micros", l."failure_reason"
  FROM jsonb_array_elements("p_outcomes") WITH ORDINALITY AS t(e, n)
  JOIN "plan_legs" l
    ON l."plan_id" = t.e ->> 'planId' AND l."leg_index" = (t.e ->> 'legIndex')::INTEGER
  WHERE l."plan_id" = ANY(v_plans)
  ORDER BY t.n;
END;
$$;

CREATE FUNCTION "ledger_record_leg_outcome"("p" JSONB)
RETURNS TABLE ("final" BOOLEAN, "stale" BOOLEAN, "status" TEXT, "tx_id" TEXT,
               "settled_amount_micros" BIGINT, "failure_reason" TEXT)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  SELECT r."final", r."stale", r."status", r."tx_id", r."settled_amount_micros", r."failure_reason"
  FROM ledger_record_leg_outcomes(jsonb_build_array("p")) r;
END;
$$;

-- ledger_record_harvests(p_items): a JSON array of
--   { wallet, chain, opportunityId, version, mark, feesRetained, now,
--     entry: <a ledger_post_entries entry>,
--     harvest: { id, venueId, value, valueAsOf, basis, gross, protocolFee, profitFee, net,
--                shares, untracked },
--     events: [{ id, type, wallet, payload }] }
-- and one row per item, in order: (ord, stale, entry_id). Positions are locked in key order;
-- an item whose position moved since its value was read (a leg settled, another harvest) is
-- stale and writes nothing; the others post their entries, store their harvest rows, move their
-- positions' marks and write their events, all in this one statement.
CREATE FUNCTION "ledger_record_harvests"("p_items" JSONB)
RETURNS TABLE ("ord" INTEGER, "stale" BOOLEAN, "entry_id" BIGINT)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_fresh INTEGER[];
  v_entries BIGINT[];
BEGIN
  PERFORM 1 FROM "positions" p
  WHERE (p."wallet", p."chain", p."opportunity_id") IN (
    SELECT t.e ->> 'wallet', t.e ->> 'chain', t.e ->> 'opportunityId'
    FROM jsonb_array_elements("p_items") t(e))
  ORDER BY p."wallet", p."chain", p."opportunity_id"
  FOR UPDATE;
  SELECT COALESCE(array_agg(x.n ORDER BY x.n), '{}') INTO v_fresh
  FROM (
    SELECT t.n::INTEGER AS n,
           row_number() OVER (PARTITION BY t.e ->> 'wallet', t.e ->> 'chain',
                              t.e ->> 'opportunityId' ORDER BY t.n) AS r
    FROM jsonb_array_elements("p_items") WITH ORDINALITY t(e, n)
    JOIN "positions" p
      ON p."wallet" = t.e ->> 'wallet' AND p."chain" = t.e ->> 'chain'
     AND p."opportunity_id" = t.e ->> 'opportunityId'
    WHERE p."version" = (t.e ->> 'version')::BIGINT) x
  WHERE x.r = 1;

  SELECT COALESCE(array_agg(r."entry_id" ORDER BY r."ord"), '{}') INTO v_entries
  FROM ledger_post_entries((
    SELECT COALESCE(jsonb_agg(t.e -> 'entry' ORDER BY t.n), '[]')
    FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n)
    WHERE t.n::INTEGER = ANY(v_fresh))) r;

  INSERT INTO "harvests" ("id", "wallet", "chain", "opportunity_id", "venue_id", "entry_id",
                          "value_micros", "value_as_of", "basis_micros", "gross_micros",
                          "protocol_fee_micros", "profit_fee_micros", "net_micros", "shares",
                          "untracked_micros", "created_at")
  SELECT h ->> 'id', t.e ->> 'wallet', t.e ->> 'chain', t.e ->> 'opportunityId', h ->> 'venueId',
         v_entries[array_position(v_fresh, t.n::INTEGER)], (h ->> 'value')::BIGINT,
         (h ->> 'valueAsOf')::TIMESTAMPTZ, (h ->> 'basis')::BIGINT, (h ->> 'gross')::BIGINT,
         (h ->> 'protocolFee')::BIGINT, (h ->> 'profitFee')::BIGINT, (h ->> 'net')::BIGINT,
         (h ->> 'shares')::NUMERIC, (h ->> 'untracked')::BIGINT, (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n),
       LATERAL (SELECT t.e -> 'harvest' AS h) x
  WHERE t.n::INTEGER = ANY(v_fresh);

  UPDATE "positions" p
  SET "mark_micros" = (t.e ->> 'mark')::BIGINT,
      "fees_retained_micros" = (t.e ->> 'feesRetained')::BIGINT,
      "version" = p."version" + 1,
      "updated_at" = (t.e ->> 'now')::TIMESTAMPTZ
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n)
  WHERE t.n::INTEGER = ANY(v_fresh)
    AND p."wallet" = t.e ->> 'wallet' AND p."chain" = t.e ->> 'chain'
    AND p."opportunity_id" = t.e ->> 'opportunityId';

  PERFORM ledger_insert_item_events("p_items", v_fresh);
  SET CONSTRAINTS "journal_entries_posted" IMMEDIATE;

  RETURN QUERY
  SELECT t.n::INTEGER, NOT (t.n::INTEGER = ANY(v_fresh)),
         CASE WHEN t.n::INTEGER = ANY(v_fresh)
              THEN v_entries[array_position(v_fresh, t.n::INTEGER)] END
  FROM jsonb_array_elements("p_items") WITH ORDINALITY AS t(e, n)
  ORDER BY t.n;
END;
$$;
