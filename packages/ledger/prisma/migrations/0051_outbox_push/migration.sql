-- 0051_outbox_push: a committed outbox event wakes the keeper instead of waiting for its poll,
-- ids that sort by time where the database makes them, and room for in-place updates. See
-- NOTES.md.

-- 32 hex: the time in ms (12 hex, as in a UUIDv7) then 80 random bits, so new rows land at the
-- right edge of their primary key's B-tree instead of on a random page.
CREATE FUNCTION "ledger_time_ordered_hex"() RETURNS TEXT LANGUAGE sql VOLATILE AS $$
  SELECT lpad(to_hex(floor(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT), 12, '0')
         || substr(md5(gen_random_uuid()::TEXT), 1, 20)
$$;

-- NOTIFY is sent at COMMIT (never for a rolled-back insert), once per channel and payload per
-- transaction. A listener that was away misses it: the keeper's poll stays the fallback.
CREATE FUNCTION "ledger_notify_inserted"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "inserted") THEN
    PERFORM pg_notify(TG_ARGV[0], '');
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "outbox_events_notify" AFTER INSERT ON "outbox_events"
  REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_notify_inserted"('ledger_outbox');

CREATE TRIGGER "webhook_deliveries_notify" AFTER INSERT ON "webhook_deliveries"
  REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_notify_inserted"('ledger_webhook_deliveries');

-- Free room on each page for the new version of a row updated in place: an update whose
-- columns no index covers stays on its page (HOT) and writes no index entry. New pages only;
-- existing pages get it as they are rewritten (VACUUM FULL, or as rows move).
ALTER TABLE "ledger_accounts" SET (fillfactor = 80);
ALTER TABLE "ledger_balance_shards" SET (fillfactor = 50);
ALTER TABLE "positions" SET (fillfactor = 80);
ALTER TABLE "auto_pay_yield" SET (fillfactor = 80);
ALTER TABLE "plan_legs" SET (fillfactor = 85);
ALTER TABLE "webhook_deliveries" SET (fillfactor = 80);
ALTER TABLE "outbox_events" SET (fillfactor = 90);
ALTER TABLE "idempotency_keys" SET (fillfactor = 85);
ALTER TABLE "bridge_transfers" SET (fillfactor = 90);
