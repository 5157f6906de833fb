import { z } from 'zod';
import { Chain } from './chains';
import { Blocker } from './errors';
import { MicrosOut, MicrosString } from './money';
import { PlanDocument } from './planDocuments';
import { walletAddress } from './params';

/** The most payees one auto-pay config names (documented in docs/auto-pay.md). */
export const AUTO_PAY_MAX_PAYEES = 10;

/** Weights are basis points of what a run pays; they sum to exactly this. */
export const AUTO_PAY_WEIGHT_TOTAL_BPS = 10_000;

export const AutoPayTrigger = z.enum(['after_harvest', 'manual', 'threshold']).meta({
  description:
    'after_harvest: a harvest that booked yield prepares a run for the owner to sign; manual: ' +
    'only the owner runs it; threshold: a run is prepared only once the payable yield reaches ' +
    'minAmountMicros. The owner may run it by hand under any trigger.',
});
export type AutoPayTrigger = z.infer<typeof AutoPayTrigger>;

export const AutoPayPayee = z.strictObject({
  payeeId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must be of [A-Za-z0-9_.:-]' })
    .meta({ description: "The owner's name for the payee; unique in the config." }),
  address: z.string().min(1).max(128).meta({
    description: "The payee's address on the wallet's chain (checked in the chain's format).",
  }),
  weightBps: z.number().int().min(0).max(AUTO_PAY_WEIGHT_TOTAL_BPS),
});
export type AutoPayPayee = z.infer<typeof AutoPayPayee>;

/**
 * The payee rules of a config (and of PUT …/auto-pay/payees): weights add up to exactly 10000,
 * and no payeeId or address (any case) repeats; each issue names `payees`.
 */
export function checkAutoPayPayees(
  payees: readonly AutoPayPayee[],
  context: {
    addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void;
  },
): void {
  const total = payees.reduce((sum, payee) => sum + payee.weightBps, 0);
  if (total !== AUTO_PAY_WEIGHT_TOTAL_BPS) {
    context.addIssue({
      code: 'custom',
      path: ['payees'],
      message: `the weights add up to ${total} bps, not ${AUTO_PAY_WEIGHT_TOTAL_BPS}`,
    });
  }
  const seen = { payeeId: new Set<string>(), address: new Set<string>() };
  payees.forEach((payee, index) => {
    for (const key of ['payeeId', 'address'] as const) {
      const value = key === 'address' ? payee.address.toLowerCase() : payee.payeeId;
      if (seen[key].has(value)) {
        context.addIssue({
          code: 'custom',
          path: ['payees', index, key],
          message: `duplicate payee ${key} ${payee[key]}`,
        });
      }
      seen[key].add(value);
    }
  });
}

/** The fields of a config, each as `PUT …/auto-pay` takes it. */
const configFields = {
  enabled: z.boolean(),
  percentage: z.number().int().min(0).max(100).meta({
    description: 'Share (0..100) of each harvest’s net yield, after the skim, paid to payees.',
  }),
  payees: z.array(AutoPayPayee).min(1).max(AUTO_PAY_MAX_PAYEES),
  trigger: AutoPayTrigger,
  minAmountMicros: MicrosString.optional().meta({
    description: 'threshold trigger: the payable yield that prepares a run. Default 0.',
  }),
  maxPerPayeePerDayMicros: MicrosString.optional().meta({
    description:
      'The most one payee is paid in any 24 hours (open and settled transfers); absent or "0" = no cap.',
  }),
  dustMicros: MicrosString.optional().meta({
    description: 'A payee whose share is below it is skipped this run (it stays payable).',
  }),
  emergencyPause: z.boolean().optional().meta({
    description: 'Stops every run at once; yield keeps accruing while the config is enabled.',
  }),
};

/** `PUT /wallets/{address}/auto-pay`: the whole config (a PUT replaces it). */
export const AutoPayConfigInput = z
  .strictObject(configFields)
  .superRefine((config, context) => checkAutoPayPayees(config.payees, context))
  .meta({
    description:
      "The payees' weightBps add up to exactly 10000, and no payeeId or address (any case) " +
      'repeats; otherwise 400 naming `payees`.',
    examples: [
      {
        enabled: true,
        percentage: 10,
        payees: [
          {
            payeeId: 'treasury',
            address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d',
            weightBps: AUTO_PAY_WEIGHT_TOTAL_BPS,
          },
        ],
        trigger: 'manual',
      },
    ],
  });
export type AutoPayConfigInput = z.infer<typeof AutoPayConfigInput>;

export const AutoPayConfigDocument = z.object({
  enabled: z.boolean(),
  percentage: z.number().int(),
  payees: z.array(AutoPayPayee),
  trigger: AutoPayTrigger,
  minAmountMicros: MicrosOut,
  maxPerPayeePerDayMicros: MicrosOut.nullable(),
  dustMicros: MicrosOut,
  emergencyPause: z.boolean(),
  updatedAt: z.string(),
});
export type AutoPayConfigDocument = z.infer<typeof AutoPayConfigDocument>;

/** One payee's line of a run: what it is paid, or why it is skipped this time. */
export const AutoPayPayout = z.object({
  payeeId: z.string(),
  address: z.string(),
  weightBps: z.number().int(),
  shareMicros: MicrosOut.meta({
    description: 'floor(payable yield × weightBps / 10000), before the dust rule and the cap.',
  }),
  amountMicros: MicrosOut.meta({ description: 'What the transfer leg pays ("0" when skipped).' }),
  skipped: z.enum(['dust', 'daily_cap']).nullable(),
});
export type AutoPayPayout = z.infer<typeof AutoPayPayout>;

/** A venue position's yield pool: what harvest booked for payees and what guards principal. */
export const AutoPayPosition = z.object({
  chain: Chain,
  opportunityId: z.string(),
  venueId: z.string(),
  accruedMicros: MicrosOut.meta({
    description: 'Σ harvest net yield × percentage / 100 (floored for display).',
  }),
  committedMicros: MicrosOut.meta({ description: 'What runs took: open and settled withdrawals.' }),
  payableMicros: MicrosOut.meta({ description: 'Accrued less committed: what a run may pay.' }),
  stakedMicros: MicrosOut,
  principalMicros: MicrosOut.meta({
    description: 'Settled deposits into the position less the owner’s settled withdrawals.',
  }),
  principalHeadroomMicros: MicrosOut.meta({
    description: 'Staked less principal less open auto-pay withdrawals: a run above it is refused.',
  }),
});
export type AutoPayPosition = z.infer<typeof AutoPayPosition>;

/** What a run of one position would pay now. */
export const AutoPaySplit = z.object({
  chain: Chain,
  opportunityId: z.string(),
  venueId: z.string(),
  payableMicros: MicrosOut,
  amountMicros: MicrosOut.meta({ description: 'Σ payouts: what the withdraw leg takes.' }),
  remainderMicros: MicrosOut.meta({
    description: 'Payable yield not paid this run (rounding, dust, caps): stays with the wallet.',
  }),
  feeMicros: MicrosOut.meta({
    description:
      'The fee line packages/fees computes for the withdraw leg from the published schedule (0: the yield paid its skim at harvest, and the schedule has no transfer fee).',
  }),
  payouts: z.array(AutoPayPayout),
});
export type AutoPaySplit = z.infer<typeof AutoPaySplit>;

/** `GET /wallets/{address}/auto-pay`. */
export const AutoPayDocument = z.object({
  schemaVersion: z.literal('svc-auto-pay.v1'),
  wallet: z.string(),
  maxPayees: z.number().int(),
  config: AutoPayConfigDocument.nullable().meta({ description: 'Null until the owner sets one.' }),
  payableMicros: MicrosOut,
  positions: z.array(AutoPayPosition),
  next: AutoPaySplit.nullable().meta({
    description: 'What a run would pay now (the position with the most payable yield).',
  }),
  openRuns: z
    .array(
      z.object({
        planId: z.string(),
        chain: Chain,
        opportunityId: z.string(),
        amountMicros: MicrosOut,
        createdAt: z.string(),
      }),
    )
    .meta({
      description:
        'Runs with a leg still to sign or settle, newest first (at most 20): those the after_harvest trigger prepared too (GET /svc/plans/{planId} has their legs).',
    }),
});
export type AutoPayDocument = z.infer<typeof AutoPayDocument>;

const runTarget = {
  chain: Chain.optional(),
  opportunityId: z.string().min(1).max(128).optional().meta({
    description: 'The position whose yield to pay; default the one with the most payable.',
  }),
};

/** `POST …/auto-pay/preview`: what a run of the wallet in the path would pay now. */
export const AutoPayRunRequest = z.strictObject(runTarget);
export type AutoPayRunRequest = z.infer<typeof AutoPayRunRequest>;

const CONFIG_FIELDS = Object.keys(configFields).filter((key) => key !== 'enabled');

/**
 * `POST /wallets/{address}/auto-pay`: without `enabled`, run the config now (owner); with it, a
 * config write in the shape v1 clients send (issue 41): the fields given replace the stored
 * ones, `percentage` in percent (0..100) as ours and the peer's v1 schema both count it.
 */
export const AutoPayPostRequest = z
  .strictObject({
    ...runTarget,
    enabled: configFields.enabled.optional().meta({
      description:
        'Present: this POST writes the config (the v1 shape) instead of running it. The fields ' +
        'given replace the stored ones; without a stored config `payees` and `percentage` are ' +
        'required (400 naming them: PUT …/auto-pay/payees stores payees first).',
    }),
    percentage: configFields.percentage.optional(),
    payees: configFields.payees.optional(),
    trigger: configFields.trigger.optional(),
    minAmountMicros: configFields.minAmountMicros,
    maxPerPayeePerDayMicros: configFields.maxPerPayeePerDayMicros,
    dustMicros: configFields.dustMicros,
    emergencyPause: configFields.emergencyPause,
  })
  .superRefine((request, context) => {
    const config = CONFIG_FIELDS.filter(
      (key) => key in request && request[key as never] !== undefined,
    );
    if (request.enabled === undefined) {
      for (const key of config) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: 'a config field: send it with `enabled` (a config write), or PUT …/auto-pay',
        });
      }
      return;
    }
    for (const key of ['chain', 'opportunityId'] as const) {
      if (request[key] !== undefined) {
        context.addIssue({
          code: 'custom',
          path: [key],
          message: 'a run target: a config write (with `enabled`) runs nothing',
        });
      }
    }
    if (request.payees) checkAutoPayPayees(request.payees, context);
  })
  .meta({
    description:
      'Run: `{}` or a target (`chain`, `opportunityId`). Config write (v1 clients): `enabled` ' +
      'with any of the config fields of PUT …/auto-pay. The two never mix (400 naming the field).',
    // The rules above as the document states them (crossFieldRules.ts): a config field needs
    // `enabled`, and `enabled` refuses a run target.
    dependentRequired: Object.fromEntries(CONFIG_FIELDS.map((key) => [key, ['enabled']])),
    dependentSchemas: {
      enabled: { properties: { chain: { not: {} }, opportunityId: { not: {} } } },
    },
    examples: [{}, { enabled: true, percentage: 50 }],
  });
export type AutoPayPostRequest = z.infer<typeof AutoPayPostRequest>;

/** `POST /svc/auto-pay/plan`: what a run of a wallet would pay now; nothing stored. */
export const AutoPayPlanRequest = z.strictObject({
  // v1 clients send `{}` by default: the answer says what to send, or where the path names it.
  wallet: walletAddress(
    'required: the wallet whose auto-pay to plan (or POST /api/v1/wallets/{address}/auto-pay/preview)',
  ),
  ...runTarget,
});
export type AutoPayPlanRequest = z.infer<typeof AutoPayPlanRequest>;

export const AutoPayPlanDocument = z.object({
  schemaVersion: z.literal('svc-auto-pay-plan.v1'),
  wallet: z.string(),
  status: z.enum(['ready', 'blocked']),
  blockers: z.array(Blocker),
  split: AutoPaySplit.nullable(),
  ownerMustSign: z.literal(true),
  stored: z.literal(false).meta({
    description: 'Prepare only: nothing is stored or reserved; the owner’s run prepares the legs.',
  }),
});
export type AutoPayPlanDocument = z.infer<typeof AutoPayPlanDocument>;

/**
 * The run's answer: the plan (withdraw leg, then one transfer leg per payee) and its split. An
 * extension, not an intersection: its JSON Schema is one object, so the MCP tool describes it
 * (the plan's `simulation` with it).
 */
export const AutoPayRunDocument = PlanDocument.extend({ wallet: z.string(), split: AutoPaySplit });
export type AutoPayRunDocument = z.infer<typeof AutoPayRunDocument>;
