import pino from 'pino';
import { startKeeper } from '@yieldrouter/jobs';
import type { RunningKeeper } from '@yieldrouter/jobs';
import type { TestApp } from './startTestApp';

/**
 * Test app settings for a keeper that watches settlements every 200 ms and does nothing else on
 * a timer (no APY refresh, no harvest batch); add the outbox relay and webhook delivery where a
 * test needs them.
 */
export const settlementWatchKeeperSettings: Readonly<Record<string, string>> = {
  SVC_KEEPER_HEARTBEAT_MS: '200',
  SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
  SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
  SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '200',
};

/** The keeper inside the test app's process (as `server.ts` runs it), logging nothing. */
export function startInApiKeeper(t: TestApp): Promise<RunningKeeper> {
  return startKeeper({
    db: t.db,
    config: t.config,
    logger: pino({ level: 'silent' }),
    mode: 'in-api',
  });
}
