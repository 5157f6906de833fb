import { z } from 'zod';
import { AuditQuery } from './auditTrail';
import { AUTO_PAY_MAX_PAYEES, AutoPayPayee, checkAutoPayPayees } from './autoPay';
import { Chain, ExecutionMode } from './chains';
import { ChainEnablement } from './metaDocuments';
import { MicrosOut, PositiveMicrosString } from './money';
import { WalletAddress, WalletParams } from './params';
import { AutoYieldSetting, WithdrawRequest } from './walletRequests';

// Request and answer shapes of the routes peer clients call (issue 41), each a view of or an
// alias over an existing use case: nothing here is computed that the service cannot read.

/** Why a value is null: it cannot be read here, never a guess. */
const Unavailable = z
  .object({ code: z.string(), message: z.string() })
  .meta({ description: 'Why the value next to it is null (never a guessed number).' });

// ── Auto-pay payees ─────────────────────────────────────────────────────
export const AutoPayPayeesInput = z
  .strictObject({ payees: z.array(AutoPayPayee).min(1).max(AUTO_PAY_MAX_PAYEES) })
  .superRefine((input, context) => checkAutoPayPayees(input.payees, context))
  .meta({
    description:
      'The payees alone (1 to 10, weights summing to 10000, no repeated payeeId or address). ' +
      'The rest of the auto-pay config is kept; without a config one is stored disabled ' +
      '(enabled false, percentage 0, trigger manual) until PUT /wallets/{address}/auto-pay.',
    examples: [
      {
        payees: [
          {
            payeeId: 'treasury',
            address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d',
            weightBps: 10000,
          },
        ],
      },
    ],
  });
export type AutoPayPayeesInput = z.infer<typeof AutoPayPayeesInput>;

export const AutoPayPayeesDocument = z.object({
  schemaVersion: z.literal('svc-auto-pay-payees.v1'),
  wallet: z.string(),
  configured: z.boolean().meta({ description: 'False until an auto-pay config is stored.' }),
  enabled: z.boolean(),
  maxPayees: z.number().int(),
  payees: z.array(AutoPayPayee),
});
export type AutoPayPayeesDocument = z.infer<typeof AutoPayPayeesDocument>;

// ── Auto-yield stake and unstake ────────────────────────────────────────
export const AutoYieldMoveRequest = z
  .strictObject({
    amountMicros: PositiveMicrosString,
    chain: Chain.optional().meta({
      description: "Must be the venue's chain when a venue is named (else 400 naming body.chain).",
    }),
    // The auto-yield setting's venue field, as the peer names it here.
    venue: AutoYieldSetting.shape.targetVenue.meta({
      description:
        "An opportunity id, bare venue id or form- alias. Absent: the wallet's auto-yield venue " +
        '(PUT /wallets/{address}/auto-yield).',
    }),
    idempotencyKey: WithdrawRequest.shape.idempotencyKey,
  })
  .meta({ examples: [{ amountMicros: '1000000', chain: 'base', venue: 'aave-v3' }] });
export type AutoYieldMoveRequest = z.infer<typeof AutoYieldMoveRequest>;

// ── One autopilot decision ──────────────────────────────────────────────
export const AutopilotDecisionParams = z.strictObject({
  address: WalletParams.shape.address,
  decisionId: z
    .string()
    .max(23)
    .regex(/^apd_[1-9][0-9]{0,18}$/, { error: 'must be a decisionId (apd_<n>) from the history' })
    // Below the largest row id (2^63 − 1): the history reads the page that starts after it.
    .refine((id) => !/^apd_\d+$/.test(id) || BigInt(id.slice(4)) < 2n ** 63n - 1n, {
      error: 'no such decisionId',
    })
    .meta({ examples: ['apd_1'] }),
});

// ── Solana stake plan ───────────────────────────────────────────────────
export const SolanaStakePlanRequest = z
  .strictObject({
    owner: z.string().min(1).max(128).meta({ description: "The owner's Solana address." }),
    amountMicros: PositiveMicrosString,
    venue: z.string().min(1).max(128).meta({
      description: 'A Solana opportunity id, bare venue id or form- alias (e.g. kamino).',
    }),
  })
  .meta({
    examples: [
      {
        owner: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
        amountMicros: '1000000',
        venue: 'kamino',
      },
    ],
  });

// ── Wallet page and audits (query aliases) ──────────────────────────────
export const WalletPageQuery = z.strictObject({ wallet: WalletAddress });
export const AuditsQuery = AuditQuery.extend({ wallet_address: WalletAddress });

// ── Meta documents ──────────────────────────────────────────────────────
export const TreasuryDocument = z.object({
  schemaVersion: z.literal('svc-treasury.v1'),
  protocolYieldSkimBps: z.number().int(),
  chains: z.array(
    z.object({
      chain: Chain,
      address: z.string().nullable().meta({ description: 'SVC_<CHAIN>_TREASURY; null: unset.' }),
      unavailable: Unavailable.nullable(),
      balancePath: z.string().nullable().meta({
        description: "Where the treasury's on-chain balance is read (the chain's wallet-balance).",
      }),
    }),
  ),
});
export type TreasuryDocument = z.infer<typeof TreasuryDocument>;

export const NetworkDocument = z.object({
  schemaVersion: z.literal('svc-network.v1'),
  chains: z.array(
    z.object({
      chain: Chain,
      network: z.string().nullable().meta({
        description: 'The configured cluster (sui, solana); null on the EVM chains (mainnet).',
      }),
      rpcConfigured: z.boolean().meta({ description: 'Whether an RPC is set (never its URL).' }),
      usdc: z.string().meta({ description: "USDC's address, mint or coin type on the chain." }),
      executionMode: ExecutionMode,
      broadcastEnabled: z.boolean(),
    }),
  ),
});
export type NetworkDocument = z.infer<typeof NetworkDocument>;

const PossibleAction = z.object({
  action: z.enum(['deposit', 'withdraw', 'route', 'swap', 'bridge', 'harvest', 'autopilot']),
  operationId: z.string().meta({ description: 'The route that prepares it.' }),
  possible: z.boolean(),
  reason: z.string().nullable().meta({ description: 'Why not, when possible is false.' }),
});

export const PossibleDocument = z.object({
  schemaVersion: z.literal('svc-possible.v1'),
  asOf: z.string(),
  ownerMustSign: z.literal(true),
  chains: z.array(
    z.object({
      chain: Chain,
      executionMode: ExecutionMode,
      readyOpportunities: z.array(z.string()),
      actions: z.array(PossibleAction),
    }),
  ),
});
export type PossibleDocument = z.infer<typeof PossibleDocument>;

const ApyStats = z.object({
  minBps: z.number().int().nullable(),
  medianBps: z.number().int().nullable(),
  maxBps: z.number().int().nullable(),
  known: z.number().int().meta({ description: 'Opportunities with a known APY.' }),
});

const MarketStatsRow = z.object({
  opportunities: z.number().int(),
  ready: z.number().int(),
  tvlUsdMicros: MicrosOut.nullable().meta({
    description: 'Σ of the known TVLs; null when none is known.',
  }),
  tvlKnown: z.number().int(),
  grossApy: ApyStats,
});

export const MarketStatsDocument = z.object({
  schemaVersion: z.literal('svc-market-stats.v1'),
  asOf: z.string(),
  total: MarketStatsRow,
  chains: z.array(MarketStatsRow.extend({ chain: Chain })),
});
export type MarketStatsDocument = z.infer<typeof MarketStatsDocument>;

export const ChainProfileDocument = z.object({
  schemaVersion: z.literal('svc-chain-profile.v1'),
  chain: Chain,
  enablement: ChainEnablement,
  network: NetworkDocument.shape.chains.element,
  stats: MarketStatsRow,
  venues: z.array(
    z.object({
      venueId: z.string(),
      opportunityId: z.string(),
      ready: z.boolean(),
      grossApyBps: z.number().int().nullable(),
      tvlUsdMicros: MicrosOut.nullable(),
    }),
  ),
});
export type ChainProfileDocument = z.infer<typeof ChainProfileDocument>;
