import type { ChainsConfig } from '@yieldrouter/engine';
import type {
  Chain,
  ChainEnablement,
  ChainProfileDocument,
  MarketStatsDocument,
  NetworkDocument,
  Opportunity,
  PossibleDocument,
} from '@yieldrouter/schemas';
import { AutopilotChain, Chain as ChainEnum } from '@yieldrouter/schemas';

// Documents peer clients read (issue 41), computed from configuration, enablement and the
// opportunity snapshot only. Sums and ranges are over known values; none known is null.

type StatsRow = MarketStatsDocument['total'];
type NetworkRow = NetworkDocument['chains'][number];

/** Counts, known TVL and the APY range of `opportunities`. */
export function statsOf(opportunities: readonly Opportunity[]): StatsRow {
  const tvls = opportunities.flatMap((entry) =>
    entry.tvlUsdMicros === null ? [] : [BigInt(entry.tvlUsdMicros)],
  );
  const apys = opportunities
    .flatMap((entry) => (entry.grossApyBps === null ? [] : [entry.grossApyBps]))
    .sort((a, b) => a - b);
  return {
    opportunities: opportunities.length,
    ready: opportunities.filter((entry) => entry.ready).length,
    tvlUsdMicros: tvls.length === 0 ? null : tvls.reduce((sum, tvl) => sum + tvl, 0n).toString(),
    tvlKnown: tvls.length,
    grossApy: {
      minBps: apys[0] ?? null,
      // The lower middle value for an even count: always an APY some opportunity has.
      medianBps: apys[Math.floor((apys.length - 1) / 2)] ?? null,
      maxBps: apys.at(-1) ?? null,
      known: apys.length,
    },
  };
}

export function marketStats(opportunities: readonly Opportunity[], asOf: string) {
  return {
    schemaVersion: 'svc-market-stats.v1' as const,
    asOf,
    total: statsOf(opportunities),
    chains: ChainEnum.options.map((chain) => ({
      chain,
      ...statsOf(opportunities.filter((entry) => entry.chain === chain)),
    })),
  } satisfies MarketStatsDocument;
}

/** One chain's network row: its configured cluster, whether an RPC is set, USDC, its mode. */
export function networkRow(
  chains: ChainsConfig,
  enablement: readonly ChainEnablement[],
  chain: Chain,
): NetworkRow {
  const entry = enablement.find((candidate) => candidate.chain === chain);
  const config = chains[chain];
  return {
    chain,
    network: 'network' in config ? config.network : null,
    rpcConfigured: config.rpcUrl !== undefined,
    usdc: config.usdc,
    executionMode: entry?.executionMode ?? 'disabled',
    broadcastEnabled: entry?.broadcastEnabled ?? false,
  };
}

/** The first reason none of `entries` can do it, or a plain one when the chain lists none. */
function whyNot(
  entries: readonly Opportunity[],
  blocked: (entry: Opportunity) => string | null,
  otherwise: string,
) {
  if (entries.length === 0) return 'no opportunity is listed on this chain';
  return entries.map(blocked).find((reason) => reason !== null) ?? otherwise;
}

/** What an agent can prepare on each chain now, and the route that prepares it. */
export function possible(
  opportunities: readonly Opportunity[],
  enablement: readonly ChainEnablement[],
  asOf: string,
): PossibleDocument {
  return {
    schemaVersion: 'svc-possible.v1',
    asOf,
    ownerMustSign: true,
    chains: enablement.map((entry) => {
      const listed = opportunities.filter((candidate) => candidate.chain === entry.chain);
      const depositable = listed.some((candidate) => candidate.depositable);
      const redeemable = listed.some((candidate) => candidate.redeemable);
      const autopilot = AutopilotChain.safeParse(entry.chain).success;
      const ready = listed.filter((candidate) => candidate.ready);
      return {
        chain: entry.chain,
        executionMode: entry.executionMode,
        readyOpportunities: ready.map((candidate) => candidate.opportunityId),
        actions: [
          {
            action: 'deposit' as const,
            operationId: 'prepareDepositPlan',
            possible: depositable,
            reason: depositable
              ? null
              : whyNot(listed, (c) => c.depositBlockedReason, 'no opportunity takes deposit plans'),
          },
          {
            action: 'withdraw' as const,
            operationId: 'prepareWithdrawPlan',
            possible: redeemable,
            reason: redeemable
              ? null
              : whyNot(listed, (c) => c.notReadyReason, 'no opportunity takes withdraw plans'),
          },
          {
            action: 'autopilot' as const,
            operationId: 'enableAutopilot',
            possible: autopilot && ready.length > 0,
            reason: !autopilot
              ? 'the autopilot runs on sui and solana only'
              : ready.length > 0
                ? null
                : 'no opportunity is ready on this chain',
          },
        ],
      };
    }),
  };
}

/** A chain's profile: enablement, network, stats and venues. */
export function chainProfile(
  chain: Chain,
  opportunities: readonly Opportunity[],
  enablement: readonly ChainEnablement[],
  chains: ChainsConfig,
): ChainProfileDocument {
  const entry = enablement.find((candidate) => candidate.chain === chain);
  if (!entry) throw new Error(`no enablement for ${chain}`);
  const listed = opportunities.filter((candidate) => candidate.chain === chain);
  return {
    schemaVersion: 'svc-chain-profile.v1',
    chain,
    enablement: entry,
    network: networkRow(chains, enablement, chain),
    stats: statsOf(listed),
    venues: listed.map((candidate) => ({
      venueId: candidate.venueId,
      opportunityId: candidate.opportunityId,
      ready: candidate.ready,
      grossApyBps: candidate.grossApyBps,
      tvlUsdMicros: candidate.tvlUsdMicros,
    })),
  };
}
