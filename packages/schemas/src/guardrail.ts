import { z } from 'zod';
import { Chain } from './chains';
import { MicrosOut, PositiveMicrosString } from './money';

/** Opportunity ids as a guardrail names them (an `svcop…` id, a bare venue id or a form- alias). */
const OpportunityRef = z.string().min(1).max(128);

/** The most of a wallet's staked principal on a chain one opportunity may hold: 1..10000 bps. */
export const AllocationBps = z
  .number()
  .int()
  .min(1)
  .max(10_000)
  .meta({ description: 'Basis points of the staked principal on the chain, 1..10000.' });

/** The most opportunities an allowlist or an allocation map names. */
export const GUARDRAIL_LIST_MAX = 64;

/**
 * PUT /wallets/{address}/guardrails: the owner's guardrails, as a whole (PUT replaces: a field
 * left out has no limit). Opportunity ids may be given as `svcop…` ids, bare venue ids or form-
 * aliases; the document answers with opportunity ids. The two constants may be echoed back with
 * their only value.
 */
export const GuardrailsUpdate = z
  .strictObject({
    allowedChains: z.array(Chain).min(1).max(4).optional().meta({
      uniqueItems: true,
      description: 'Chains route, rebalance and the autopilot may put money on; absent = all.',
    }),
    venueAllowlist: z.array(OpportunityRef).min(1).max(GUARDRAIL_LIST_MAX).optional().meta({
      description: 'Opportunities money may enter; absent = all.',
    }),
    maxAllocationBps: z
      .record(OpportunityRef, AllocationBps)
      .refine((map) => Object.keys(map).length <= GUARDRAIL_LIST_MAX, {
        error: `at most ${GUARDRAIL_LIST_MAX} opportunities`,
      })
      .optional()
      .meta({
        maxProperties: GUARDRAIL_LIST_MAX,
        description:
          "Per opportunity: the most of the wallet's staked principal on its chain (after the " +
          'move) it may hold, in bps 1..10000.',
      }),
    maxPerOpportunityMicros: PositiveMicrosString.optional().meta({
      description: 'The most staked in any one opportunity (after the move); absent = no cap.',
    }),
    minNetApyBps: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .optional()
      .meta({
        description:
          "The least net APY (the live gross APY less the fee schedule's yield skim) an " +
          'opportunity must offer to receive money; an unknown APY never passes.',
      }),
    ownerExitAlways: z.literal(true).optional(),
    agentMayWithdrawPrincipal: z.literal(false).optional(),
  })
  .superRefine((update, context) => {
    const seen = new Set<string>();
    for (const [index, chain] of (update.allowedChains ?? []).entries()) {
      if (seen.has(chain)) {
        context.addIssue({ code: 'custom', path: ['allowedChains', index], message: 'duplicate' });
      }
      seen.add(chain);
    }
  });
export type GuardrailsUpdate = z.output<typeof GuardrailsUpdate>;

/** GET / PUT /wallets/{address}/guardrails (svc-wallet-guardrails.v1). */
export const GuardrailsDocument = z
  .object({
    schemaVersion: z.literal('svc-wallet-guardrails.v1'),
    wallet: z.string(),
    allowedChains: z.array(Chain).nullable().meta({ description: 'null = every chain.' }),
    venueAllowlist: z
      .array(z.string())
      .nullable()
      .meta({ description: 'Opportunity ids; null = every opportunity.' }),
    maxAllocationBps: z.record(z.string(), AllocationBps),
    maxPerOpportunityMicros: MicrosOut.nullable(),
    minNetApyBps: z.number().int().nullable(),
    ownerExitAlways: z.literal(true).meta({
      description: 'Constant: the owner can always withdraw; no guardrail stops an exit.',
    }),
    agentMayWithdrawPrincipal: z.literal(false).meta({
      description: 'Constant: an agent key never withdraws principal (writes are owner-only).',
    }),
    updatedAt: z.string().nullable(),
  })
  .meta({
    description:
      "A wallet's guardrails: set by its owner, read by its agents. Route (with stake), deposit " +
      'plans with an owner, rebalance and the autopilot check them, and a plan they stop comes ' +
      'back `blocked` with `guardrail_*` blockers.',
  });
export type GuardrailsDocument = z.infer<typeof GuardrailsDocument>;
