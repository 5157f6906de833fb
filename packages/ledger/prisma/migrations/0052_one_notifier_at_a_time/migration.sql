-- 0052_one_notifier_at_a_time: NOTIFY serializes the commits of the transactions that sent one
-- (PostgreSQL queues notifications in commit order under one lock held through each commit's
-- WAL flush), which took group commit from settlements that write outbox events. One notifying
-- transaction at a time now: a transaction that finds another one holding the channel's
-- advisory lock commits beside it without notifying. The listener looks again shortly after each
-- run that found work (the keeper's wakeOnCommit), which picks those commits up. See NOTES.md.
CREATE OR REPLACE FUNCTION "ledger_notify_inserted"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "inserted")
     AND pg_try_advisory_xact_lock(hashtext(TG_ARGV[0])) THEN
    PERFORM pg_notify(TG_ARGV[0], '');
  END IF;
  RETURN NULL;
END;
$$;
