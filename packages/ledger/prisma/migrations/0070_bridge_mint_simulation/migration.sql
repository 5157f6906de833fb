-- Issue 44 on a bridge's destination mint (see NOTES.md): the mint leg exists only once the burn
-- is attested (POST /svc/bridge/delivery builds it), so its simulation is kept with the transfer.
--
-- bridge_transfers.mint_simulation: the `simulation` of the mint leg as last served (run on the
-- destination chain; its legs' single entry is the mint, its digest inside), compared with the
-- delivering transaction when the delivery is credited. Null until a mint leg was served.
ALTER TABLE "bridge_transfers" ADD COLUMN "mint_simulation" JSONB
  CHECK ("mint_simulation" IS NULL OR jsonb_typeof("mint_simulation") = 'object');
