import { z } from 'zod';
import { ExecutionMode } from './chains';
import { MicrosOut } from './money';
import { CageAction } from './cageRequests';
import { PlanSimulation } from './planSimulation';

/** The chains with a cage: the Map chains, where the owner signs and the service never sends. */
export const CageChain = z.enum(['base', 'arbitrum']);
export type CageChain = z.infer<typeof CageChain>;

/** What refused an action: the same rule the contract enforces. */
export const CageLock = z.enum([
  'cage_enabled',
  'cage_paused',
  'venue_allowlist',
  'payee_allowlist',
  'owner_destination',
  'position_balance',
  'harvestable_yield',
  'wallet_balance',
]);
export type CageLock = z.infer<typeof CageLock>;

/** Why a cage answer could not be given: no contract configured, or the chain unreadable. */
export const CageUnavailableReason = z.enum([
  'cage_not_configured',
  'rpc_not_configured',
  'rpc_timeout',
  'rpc_error',
  'rpc_bad_response',
]);
export type CageUnavailableReason = z.infer<typeof CageUnavailableReason>;

export const CageActionDocument = z.object({
  kind: CageAction,
  destinationLock: z.string().meta({ description: 'Where the money of this action may go.' }),
  allowedWhilePaused: z.boolean(),
  fields: z.array(z.string()).meta({ description: 'The request fields the action takes.' }),
});

/** GET /svc/{base,arbitrum}/cage. */
export const CageDocument = z
  .object({
    chain: CageChain,
    chainId: z.number().int(),
    executionMode: ExecutionMode,
    broadcast: z.literal(false),
    contract: z.object({
      address: z.string().nullable(),
      reason: CageUnavailableReason.nullable(),
      detail: z.string().nullable(),
    }),
    maxSkimBps: z.number().int(),
    actions: z.array(CageActionDocument),
  })
  .meta({ description: 'The cage: six actions, their destination locks, and the contract.' });
export type CageDocument = z.infer<typeof CageDocument>;

export const CageVenuePosition = z.object({
  venue: z.string(),
  assetsMicros: MicrosOut,
  principalMicros: MicrosOut,
  yieldMicros: MicrosOut,
});

/** GET /wallets/{address}/{base,arbitrum}/cage: read from chain, never guessed. */
export const WalletCageDocument = z
  .object({
    chain: CageChain,
    wallet: z.string(),
    cage: z.string().nullable(),
    status: z.enum(['available', 'unavailable']),
    reason: CageUnavailableReason.nullable(),
    detail: z.string().nullable(),
    paused: z.boolean().nullable(),
    policy: z
      .object({
        enabled: z.boolean(),
        skimBps: z.number().int(),
        agent: z.string().nullable(),
        venues: z.array(CageVenuePosition),
        payees: z.array(z.string()),
      })
      .nullable(),
  })
  .meta({ description: "The wallet's cage policy and positions as the contract holds them." });
export type WalletCageDocument = z.infer<typeof WalletCageDocument>;

export const CageTransactionRequest = z
  .object({
    chainId: z.number().int(),
    from: z.string(),
    to: z.string(),
    data: z.string(),
    value: z.literal('0'),
  })
  .meta({ description: 'An unsigned EVM transaction the owner signs and sends.' });
export type CageTransactionRequest = z.infer<typeof CageTransactionRequest>;

/** A cage action or policy change, prepared for the owner to sign (never sent by the service). */
export const CagePlanDocument = z
  .object({
    planId: z.string(),
    kind: z.union([CageAction, z.literal('POLICY')]),
    chain: CageChain,
    owner: z.string(),
    status: z.enum(['prepared', 'rejected', 'blocked']),
    lock: CageLock.nullable().meta({ description: 'rejected: the lock that refused it.' }),
    reason: CageUnavailableReason.nullable().meta({ description: 'blocked: why.' }),
    message: z.string(),
    ownerMustSign: z.literal(true),
    submitted: z.literal(false),
    executionMode: ExecutionMode,
    amountMicros: MicrosOut.nullable(),
    approvalRequest: CageTransactionRequest.nullable().meta({
      description: 'ROUTE: the USDC approval of the cage, signed and sent first.',
    }),
    transactionRequest: CageTransactionRequest.nullable(),
    simulation: PlanSimulation.optional().meta({
      description:
        'Prepared actions: the approvalRequest (when there is one) then the transactionRequest, ' +
        'simulated on the chain in that order (legs 0 and 1, or leg 0): docs/simulation.md.',
    }),
  })
  .meta({ description: 'prepared (sign and send transactionRequest), rejected or blocked.' });
export type CagePlanDocument = z.infer<typeof CagePlanDocument>;
