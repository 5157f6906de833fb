import { z } from 'zod';
import { MicrosOut } from './money';

/** The featured strategy the autopilot runs (`GET /svc/strategies/{id}`). */
export const AUTOPILOT_STRATEGY_ID = 'svc-autopilot-top-30d-monthly';

/** SPEC: switch only when the challenger is at least 7 percentage points (700 bps) better. */
export const AUTOPILOT_DEFAULT_MIN_DELTA_BPS = 700;

/** The most opportunity ids a policy's allowlist holds. */
export const AUTOPILOT_ALLOWLIST_MAX = 50;

/** The autopilot reallocates within one Executable chain; Map chains (base, arbitrum) never. */
export const AutopilotChain = z.enum(['sui', 'solana'], {
  error: (issue) =>
    `autopilot runs within one Executable chain, sui or solana (got ${JSON.stringify(issue.input)}: base and arbitrum are Map chains, prepare-only)`,
});
export type AutopilotChain = z.infer<typeof AutopilotChain>;

export const AutopilotCadence = z.enum(['daily', 'weekly', 'monthly']).meta({
  description:
    'How often the keeper ticks: one tick per UTC day, ISO week (from Monday) or calendar month.',
});
export type AutopilotCadence = z.infer<typeof AutopilotCadence>;

export const AutopilotGoal = z.enum(['max_apy_30d']).meta({
  description: 'max_apy_30d: hold the ready opportunity with the best 30-day mean APY.',
});
export type AutopilotGoal = z.infer<typeof AutopilotGoal>;

const MinDeltaBps = z
  .number()
  .int()
  .min(0)
  .max(10_000)
  .meta({ description: 'The least 30-day mean APY gain (bps) that switches. Default 700.' });

const Allowlist = z
  .array(z.string().min(1).max(128))
  .max(AUTOPILOT_ALLOWLIST_MAX)
  .refine((ids) => new Set(ids).size === ids.length, { error: 'must not repeat an id' })
  .meta({
    uniqueItems: true,
    description:
      'Opportunity ids (svcop…, or a bare venue id / form- alias) on the policy chain the ' +
      'autopilot may hold; empty = every ready opportunity of the chain.',
  });

/** `POST …/autopilot/enable`: fields left out keep the stored policy (or the defaults). */
export const AutopilotEnableRequest = z
  .strictObject({
    chain: AutopilotChain.optional().meta({
      description: 'sui or solana; required when the wallet has no policy yet.',
    }),
    rebalanceMinDeltaBps: MinDeltaBps.optional(),
    cadence: AutopilotCadence.optional(),
    venueAllowlist: Allowlist.optional(),
    goal: AutopilotGoal.optional(),
    targetChain: AutopilotChain.optional().meta({
      description:
        'Alias of `chain`, the name v1 clients send (issue 41); with both, they must be equal ' +
        '(else 400 naming `body.targetChain`).',
    }),
  })
  .superRefine((input, context) => {
    if (input.chain !== undefined && input.targetChain !== undefined) {
      if (input.chain !== input.targetChain) {
        context.addIssue({
          code: 'custom',
          path: ['targetChain'],
          message: `names ${input.targetChain} while chain names ${input.chain}: send one of them`,
        });
      }
    }
  })
  .meta({
    // chain and targetChain, both given, are equal (the rule above, as the document states it).
    allOf: AutopilotChain.options.map((chain) => ({
      if: { properties: { chain: { const: chain } }, required: ['chain'] },
      then: { properties: { targetChain: { const: chain } } },
    })),
    examples: [{ chain: 'sui' }],
  });
export type AutopilotEnableRequest = z.output<typeof AutopilotEnableRequest>;

/** `POST …/autopilot/preview`: a decision under the stored policy with these fields replaced. */
export const AutopilotPreviewRequest = z
  .strictObject({
    chain: AutopilotChain.optional().meta({
      description: 'Required when the wallet has no policy yet.',
    }),
    rebalanceMinDeltaBps: MinDeltaBps.optional(),
    venueAllowlist: Allowlist.optional(),
  })
  .meta({ examples: [{ chain: 'sui' }] });
export type AutopilotPreviewRequest = z.output<typeof AutopilotPreviewRequest>;

/** Disable, decide and tick take no fields (`{}` or no body). */
export const AutopilotEmptyRequest = z.strictObject({});

export const AutopilotPolicy = z.object({
  strategyId: z.literal(AUTOPILOT_STRATEGY_ID),
  chain: AutopilotChain,
  enabled: z.boolean(),
  rebalanceMinDeltaBps: z.number().int(),
  cadence: AutopilotCadence,
  venueAllowlist: z.array(z.string()).meta({ description: 'Opportunity ids; empty = all.' }),
  goal: AutopilotGoal,
  updatedAt: z.string(),
});
export type AutopilotPolicy = z.infer<typeof AutopilotPolicy>;

/** Why a candidate may or may not win, in the order the rule checks. */
export const AutopilotVerdict = z.enum([
  'eligible',
  'not_ready',
  'mean_unknown',
  'not_allowlisted',
  'guardrail_blocked',
]);
export type AutopilotVerdict = z.infer<typeof AutopilotVerdict>;

export const AutopilotCandidate = z.object({
  opportunityId: z.string(),
  venueId: z.string(),
  protocol: z.string(),
  ready: z.boolean(),
  apyMean30dBps: z.number().int().nullable().meta({
    description: 'Null with fewer samples than the window needs: it never ranks.',
  }),
  apyMean30dSamples: z.number().int(),
  allowlisted: z.boolean(),
  guardrailBlockers: z
    .array(z.string())
    .meta({ description: "Blocker codes of the wallet's guardrails this candidate fails." }),
  verdict: AutopilotVerdict,
  rank: z.number().int().nullable().meta({ description: '1 = best eligible; null if ineligible.' }),
});
export type AutopilotCandidate = z.infer<typeof AutopilotCandidate>;

export const AutopilotIncumbent = z.object({
  opportunityId: z.string(),
  venueId: z.string(),
  stakedMicros: MicrosOut,
  apyMean30dBps: z.number().int().nullable(),
  verdict: AutopilotVerdict,
});
export type AutopilotIncumbent = z.infer<typeof AutopilotIncumbent>;

export const AutopilotOutcome = z.enum(['hold', 'switch', 'blocked']);
export type AutopilotOutcome = z.infer<typeof AutopilotOutcome>;

export const AutopilotReason = z.enum([
  'incumbent_leads',
  'below_threshold',
  'no_position',
  'incumbent_unrated',
  'challenger_clears_threshold',
  'incumbent_not_eligible',
  'no_eligible_candidate',
  'rebalance_blocked',
]);
export type AutopilotReason = z.infer<typeof AutopilotReason>;

export const AutopilotDecision = z.object({
  schemaVersion: z.literal('svc-autopilot-decision.v1'),
  decisionId: z.string(),
  wallet: z.string(),
  kind: z.enum(['tick', 'preview', 'decide']),
  period: z.string().nullable().meta({ description: 'The cadence period of a tick; else null.' }),
  decidedAt: z.string(),
  strategyId: z.literal(AUTOPILOT_STRATEGY_ID),
  chain: AutopilotChain,
  policy: AutopilotPolicy.omit({ strategyId: true, updatedAt: true }).meta({
    description: 'The policy the decision ran under (preview: with its overrides).',
  }),
  metric: z.literal('apyMean30dBps'),
  minSamples: z.number().int().meta({ description: 'Samples a 30-day mean needs to rank.' }),
  thresholdBps: z.number().int(),
  candidates: z.array(AutopilotCandidate),
  incumbent: AutopilotIncumbent.nullable(),
  challenger: AutopilotCandidate.nullable().meta({
    description: 'The best eligible candidate other than the incumbent.',
  }),
  deltaBps: z.number().int().nullable().meta({
    description: "Challenger's 30-day mean minus the incumbent's; null when either is unknown.",
  }),
  outcome: AutopilotOutcome,
  reason: AutopilotReason,
  explanation: z.string(),
  planId: z.string().nullable().meta({ description: 'The rebalance plan a tick prepared.' }),
  planBlockers: z.array(z.string()),
  withinChainOnly: z.literal(true),
  crossChainRebalance: z.literal(false),
  bridge: z.null(),
});
export type AutopilotDecision = z.infer<typeof AutopilotDecision>;

export const AutopilotTickResult = z.object({
  schemaVersion: z.literal('svc-autopilot-tick.v1'),
  replayed: z.boolean().meta({
    description: "True when this period's tick had already run: its stored decision is returned.",
  }),
  decision: AutopilotDecision,
});
export type AutopilotTickResult = z.infer<typeof AutopilotTickResult>;

export const AutopilotState = z.object({
  schemaVersion: z.literal('svc-autopilot.v1'),
  wallet: z.string(),
  policy: AutopilotPolicy.nullable().meta({ description: 'Null until the owner enables it.' }),
  incumbent: z
    .object({ opportunityId: z.string(), venueId: z.string(), stakedMicros: MicrosOut })
    .nullable(),
  nextTick: z
    .object({
      period: z.string(),
      dueAt: z.string().meta({ description: 'When the keeper ticks next (past = due now).' }),
    })
    .nullable()
    .meta({ description: 'Null while the autopilot is off.' }),
  lastDecision: AutopilotDecision.nullable(),
});
export type AutopilotState = z.infer<typeof AutopilotState>;

export const AutopilotHistoryQuery = z.strictObject({
  cursor: z.string().max(256).optional().meta({ description: 'nextCursor of the previous page.' }),
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Default 50.' }),
});

export const AutopilotHistory = z.object({
  schemaVersion: z.literal('svc-autopilot-history.v1'),
  wallet: z.string(),
  count: z.number().int(),
  decisions: z.array(AutopilotDecision),
  nextCursor: z.string().nullable(),
});
export type AutopilotHistory = z.infer<typeof AutopilotHistory>;
