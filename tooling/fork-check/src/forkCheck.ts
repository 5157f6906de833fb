import { ANVIL_ACCOUNT_COUNT, anvilAccounts, startAnvil } from '@yieldrouter/chain-beds/evm';
import type { AnvilInstance } from '@yieldrouter/chain-beds/evm';
import {
  ServiceSettings,
  VENUE_CATALOG,
  loadVenueProfile,
  parseVenueSettings,
  requiredVenueIds,
} from '@yieldrouter/engine';
import { EvmAddress, NATIVE_USDC } from '@yieldrouter/schemas';
import type { VenueOnChain } from '@yieldrouter/schemas';
import type { Address } from 'viem';
import { runVenueLegs } from './runVenueLegs';
import type { VenueLegsOutcome } from './runVenueLegs';

const CHAINS = [
  { chain: 'base', chainId: 8453, forkFrom: 'BASE_RPC_URL', usdcSetting: 'SVC_BASE_USDC_ADDRESS' },
  {
    chain: 'arbitrum',
    chainId: 42161,
    forkFrom: 'ARBITRUM_RPC_URL',
    usdcSetting: 'SVC_ARBITRUM_USDC_ADDRESS',
  },
] as const;

/** What `pnpm fork:check` read from its environment. */
export type ForkCheckEnv = Readonly<Record<string, string | undefined>>;

export interface ForkCheckReport {
  readonly ok: boolean;
  readonly lines: readonly string[];
  readonly outcomes: readonly VenueLegsOutcome[];
}

/**
 * The opt-in fork check: for each EVM chain with an RPC (`BASE_RPC_URL`, `ARBITRUM_RPC_URL`),
 * start `anvil --fork-url <rpc>` and run every ready catalog venue of that chain whose ids the
 * profile (`SVC_PROFILE`, `mainnet` by default; `SVC_VENUE_IDS` overrides id by id) gives, leg by
 * leg as a user would (`runVenueLegs`), signing with an anvil dev key. `FORK_CHECK_<CHAIN>_NODE_URL`
 * points at a running anvil instead of forking (the offline test runs it on the local bed).
 * `FORK_CHECK_AMOUNT_MICROS` (default 10 USDC) is the deposit.
 *
 * @example
 * const report = await forkCheck({ BASE_RPC_URL: 'https://…' }, console.log)
 * // report.ok: true when every venue's deposit and withdrawal settled
 */
export async function forkCheck(
  env: ForkCheckEnv,
  log: (line: string) => void,
): Promise<ForkCheckReport> {
  const settings = ServiceSettings.pick({
    SVC_PROFILE: true,
    SVC_VENUE_IDS: true,
    SVC_BASE_USDC_ADDRESS: true,
    SVC_ARBITRUM_USDC_ADDRESS: true,
  }).parse(Object.fromEntries(Object.entries(env).filter(([, value]) => value)));
  const profile = loadVenueProfile(settings.SVC_PROFILE ?? 'mainnet');
  const { ids } = parseVenueSettings(settings.SVC_VENUE_IDS, undefined, profile.ids);
  const amountMicros = BigInt(env['FORK_CHECK_AMOUNT_MICROS'] ?? '10000000');
  const ownerKey = anvilAccounts()[ANVIL_ACCOUNT_COUNT - 2]?.privateKey;
  if (!ownerKey) throw new Error('fork check: no anvil dev key');
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    log(line);
  };
  const outcomes: VenueLegsOutcome[] = [];
  for (const { chain, chainId, forkFrom, usdcSetting } of CHAINS) {
    const nodeUrl = env[`FORK_CHECK_${chain.toUpperCase()}_NODE_URL`];
    const forkUrl = env[forkFrom];
    if (!nodeUrl && !forkUrl) {
      say(`${chain}: skipped (set ${forkFrom} to fork it)`);
      continue;
    }
    const venues: VenueOnChain[] = VENUE_CATALOG.filter(
      (venue) => venue.chain === chain && venue.readiness === 'ready',
    ).flatMap((venue) => {
      const venueIds = ids[venue.id] ?? {};
      const missing = requiredVenueIds(venue.chain, venue.standard, venue.id).filter(
        (n) => !venueIds[n],
      );
      if (missing.length > 0) {
        say(`${chain} ${venue.id}: skipped (no ${missing.join(', ')} in the profile)`);
        return [];
      }
      return [{ venueId: venue.id, chain, standard: venue.standard, ids: venueIds }];
    });
    const usdc = EvmAddress.parse(settings[usdcSetting] ?? NATIVE_USDC[chain]) as Address;
    let anvil: AnvilInstance | undefined;
    try {
      if (!nodeUrl && forkUrl) {
        say(`${chain}: forking ${forkFrom} with anvil`);
        anvil = await startAnvil({ chainId, forkUrl, startTimeoutMs: 120_000 });
      }
      const rpcUrl = nodeUrl ?? anvil?.rpcUrl;
      if (!rpcUrl) throw new Error(`${chain}: no node`);
      for (const venue of venues) {
        const outcome = await runVenueLegs({
          rpcUrl,
          chainId,
          chain,
          usdc,
          venue,
          ownerKey,
          amountMicros,
        }).catch((error: unknown): VenueLegsOutcome => ({
          venueId: venue.venueId,
          ok: false,
          steps: [
            `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
          ],
        }));
        outcomes.push(outcome);
        for (const step of outcome.steps) say(`${chain} ${venue.venueId}: ${step}`);
        say(`${chain} ${venue.venueId}: ${outcome.ok ? 'OK' : 'FAILED'}`);
      }
    } finally {
      await anvil?.stop();
    }
  }
  const ok = outcomes.length > 0 && outcomes.every((outcome) => outcome.ok);
  say(
    ok
      ? 'fork check passed'
      : outcomes.length === 0
        ? 'fork check ran nothing'
        : 'fork check FAILED',
  );
  return { ok, lines, outcomes };
}
