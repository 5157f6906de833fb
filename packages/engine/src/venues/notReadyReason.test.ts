import { chainSettingGaps } from '../config/chainSettingGaps';
import { NO_VENUE_READY_HINT, depositGate, notReadyReason } from './notReadyReason';

describe('notReadyReason', () => {
  it('names the setting of each missing id, or the catalog status; null when ready', () => {
    expect(notReadyReason('aave-v3', 'ready', ['pool', 'aToken'])).toBe(
      'needs SVC_VENUE_IDS.aave-v3.pool, SVC_VENUE_IDS.aave-v3.aToken (or SVC_PROFILE: docs/profiles.md)',
    );
    expect(notReadyReason('morpho', 'ready', [])).toBeNull();
    // Silo needs its market's SiloConfig (its USDC silo is read on chain).
    expect(notReadyReason('silo', 'ready', ['siloConfig'])).toBe(
      'needs SVC_VENUE_IDS.silo.siloConfig (or SVC_PROFILE: docs/profiles.md)',
    );
    expect(notReadyReason('x', 'listed', ['vault'])).toMatch(/^listed in the catalog/);
    // A listed venue with a catalog reason says why it cannot take deposits.
    expect(notReadyReason('drift', 'listed', [])).toContain('disabled its instructions');
    expect(notReadyReason('marginfi', 'ready', [])).toBeNull();
    expect(notReadyReason('x', 'planned', [])).toMatch(/^planned in the catalog/);
  });

  it('the newcomer hint is one line naming the settings, the profile and pnpm demo', () => {
    expect(NO_VENUE_READY_HINT).not.toContain('\n');
    for (const part of ['SVC_VENUE_IDS', 'SVC_PROFILE=mainnet', 'docs/profiles.md', 'pnpm demo']) {
      expect(NO_VENUE_READY_HINT).toContain(part);
    }
  });
});

describe('depositGate', () => {
  const venue = { venueId: 'kamino', readiness: 'ready', takesDeposits: true };
  const unsetSolana = chainSettingGaps({}).solana ?? [];

  it('answers the blocker a deposit plan checks first, naming every missing setting', () => {
    expect(depositGate({ ...venue, missingIds: ['reserve'], chainGaps: unsetSolana })).toEqual({
      blocker: 'venue_not_configured',
      missingSettings: [
        'SVC_VENUE_IDS.kamino.reserve',
        'SVC_SOLANA_PROGRAM_ID',
        'SVC_SOLANA_YIELD_ROUTER',
        'SVC_SOLANA_ADAPTER_REGISTRY',
        'SVC_SOLANA_RPC_URL',
      ],
      reason: expect.stringMatching(/SVC_PROFILE=mainnet.*pnpm demo/),
    });
    const onlyRpc = chainSettingGaps({
      SVC_SOLANA_PROGRAM_ID: 'p',
      SVC_SOLANA_YIELD_ROUTER: 'r',
      SVC_SOLANA_ADAPTER_REGISTRY: 'a',
    }).solana;
    expect(depositGate({ ...venue, missingIds: [], chainGaps: onlyRpc ?? [] })).toMatchObject({
      blocker: 'rpc_unavailable',
      missingSettings: ['SVC_SOLANA_RPC_URL'],
    });
  });

  it('is open when nothing is missing, and closed for a venue that is only listed', () => {
    expect(depositGate({ ...venue, missingIds: [], chainGaps: [] })).toEqual({
      blocker: null,
      missingSettings: [],
      reason: null,
    });
    expect(
      depositGate({
        ...venue,
        venueId: 'drift',
        readiness: 'listed',
        missingIds: [],
        chainGaps: [],
      }),
    ).toMatchObject({ blocker: 'venue_not_ready', reason: expect.stringMatching(/^listed/) });
    expect(
      chainSettingGaps({
        SVC_SOLANA_RPC_URL: 'http://x',
        SVC_SOLANA_PROGRAM_ID: 'p',
        SVC_SOLANA_YIELD_ROUTER: 'r',
        SVC_SOLANA_ADAPTER_REGISTRY: 'a',
      }),
    ).toEqual({});
  });
});
