-- The bridge watch's slower look at failed bridges (issue 18).
--
-- A failed bridge (attestation window passed, or a reverted mint) can still be delivered late:
-- its mint may happen after all, and the keeper's bridge watch credits it once found. In-flight
-- bridges are looked at every pass; a failed one only when its last look (`failed_watched_at`,
-- set by the watch after each look) is older than `SVC_BRIDGE_FAILED_WATCH_MS`. NULL: never
-- looked at since it failed, so the next pass does.
ALTER TABLE "bridge_transfers" ADD COLUMN "failed_watched_at" TIMESTAMPTZ(3);
