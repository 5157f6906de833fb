-- 0064_receipt_wakes: NOTIFY `ledger_receipts` when a receipt becomes expected: a leg submitted
-- (its transaction sent, the settlement watch can read its receipt), or a bridge's burn
-- confirmed (the bridge watch can follow its attestation and mint). The keeper looks at once
-- instead of at its next poll (issue #45). Row triggers with a WHEN: the settlement statement's
-- other leg updates run no function. One notifying transaction at a time, as 0052.
CREATE FUNCTION "ledger_notify_receipt"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF pg_try_advisory_xact_lock(hashtext('ledger_receipts')) THEN
    PERFORM pg_notify('ledger_receipts', '');
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "plan_legs_receipt_expected"
  AFTER UPDATE OF "status" ON "plan_legs"
  FOR EACH ROW
  WHEN ((NEW."status" = 'submitted' AND OLD."status" IS DISTINCT FROM 'submitted')
     OR (NEW."status" = 'confirmed' AND NEW."effect" = 'bridge_burn'
         AND OLD."status" IS DISTINCT FROM 'confirmed'))
  EXECUTE FUNCTION "ledger_notify_receipt"();
