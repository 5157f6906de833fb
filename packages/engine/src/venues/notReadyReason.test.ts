import { NO_VENUE_READY_HINT, notReadyReason } from './notReadyReason';

describe('notReadyReason', () => {
  it('names the setting of each missing id, or the catalog status; null when ready', () => {
    expect(notReadyReason('aave-v3', 'ready', ['pool', 'aToken'])).toBe(
      'needs SVC_VENUE_IDS.aave-v3.pool, SVC_VENUE_IDS.aave-v3.aToken (or SVC_PROFILE: docs/profiles.md)',
    );
    expect(notReadyReason('morpho', 'ready', [])).toBeNull();
    expect(notReadyReason('silo', 'listed', ['vault'])).toMatch(/^listed in the catalog/);
    // A listed venue with a catalog reason says why it cannot take deposits.
    expect(notReadyReason('drift', 'listed', [])).toContain('disabled its instructions');
    expect(notReadyReason('marginfi', 'listed', [])).toContain('mints no receipt token');
    expect(notReadyReason('x', 'planned', [])).toMatch(/^planned in the catalog/);
  });

  it('the newcomer hint is one line naming the settings, the profile and pnpm demo', () => {
    expect(NO_VENUE_READY_HINT).not.toContain('\n');
    for (const part of ['SVC_VENUE_IDS', 'SVC_PROFILE=mainnet', 'docs/profiles.md', 'pnpm demo']) {
      expect(NO_VENUE_READY_HINT).toContain(part);
    }
  });
});
