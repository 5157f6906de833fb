import { z } from 'zod';
import { requiredPerValue } from './crossFieldRules';
import { PositiveMicrosString } from './money';
import { EXAMPLE_EVM_ADDRESS } from './params';

// The cage domain's requests: prepare an action, set the policy.

/** The cage's six actions, in the contract's `Action` order; nothing else exists. */
export const CageAction = z.enum(['ROUTE', 'EXIT', 'REBALANCE', 'HARVEST', 'COMPOUND', 'AUTOPAY']);
export type CageAction = z.infer<typeof CageAction>;

const CageAddress = z
  .string()
  .max(42)
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be an EVM address (0x + 40 hex)' })
  .meta({
    description: 'An EVM address: 0x + 40 hex, all one case or EIP-55 checksummed (else 400).',
    examples: [EXAMPLE_EVM_ADDRESS],
  });

/** Which address fields each action takes (the others must be absent). */
export const CAGE_ACTION_FIELDS = {
  ROUTE: ['venue'],
  EXIT: ['venue', 'payee'],
  REBALANCE: ['fromVenue', 'toVenue'],
  HARVEST: ['venue', 'payee'],
  COMPOUND: ['venue', 'payee'],
  AUTOPAY: ['venue', 'payee'],
} as const satisfies Record<CageAction, readonly string[]>;
const CAGE_REQUIRED: Record<CageAction, readonly string[]> = {
  ...CAGE_ACTION_FIELDS,
  EXIT: ['venue'],
  HARVEST: ['venue'],
  COMPOUND: ['venue'],
};

const cagePrepareFields = {
  kind: CageAction,
  venue: CageAddress.optional().meta({ description: 'The venue (ERC-4626 vault) acted on.' }),
  fromVenue: CageAddress.optional().meta({ description: 'REBALANCE: the venue money leaves.' }),
  toVenue: CageAddress.optional().meta({ description: 'REBALANCE: the venue money enters.' }),
  payee: CageAddress.optional().meta({
    description:
      'AUTOPAY: an allowlisted payee. EXIT, HARVEST, COMPOUND: the destination if given, which ' +
      'must be the owner (the lock refuses any other).',
  }),
  amountMicros: PositiveMicrosString,
};

function checkCageFields(
  request: { kind: CageAction } & Partial<Record<string, unknown>>,
  context: z.RefinementCtx,
): void {
  const allowed: readonly string[] = CAGE_ACTION_FIELDS[request.kind];
  for (const field of ['venue', 'fromVenue', 'toVenue', 'payee']) {
    const present = request[field] !== undefined;
    if (present && !allowed.includes(field)) {
      context.addIssue({ code: 'custom', path: [field], message: `not taken by ${request.kind}` });
    } else if (!present && CAGE_REQUIRED[request.kind].includes(field)) {
      context.addIssue({ code: 'custom', path: [field], message: `${request.kind} needs it` });
    }
  }
}

/** checkCageFields as the document states it: per kind, the fields required and refused. */
const CAGE_FIELD_RULES = requiredPerValue('kind', CAGE_REQUIRED, CAGE_ACTION_FIELDS, [
  'venue',
  'fromVenue',
  'toVenue',
  'payee',
]);

/** A cage action to prepare for the wallet in the path. */
export const WalletCagePrepareRequest = z
  .strictObject(cagePrepareFields)
  .superRefine(checkCageFields)
  .meta({ allOf: CAGE_FIELD_RULES });
export type WalletCagePrepareRequest = z.output<typeof WalletCagePrepareRequest>;

/** A cage action to prepare for `wallet` (the owner who signs). */
export const CagePrepareRequest = z
  .strictObject({ wallet: CageAddress, ...cagePrepareFields })
  .superRefine(checkCageFields)
  .meta({ allOf: CAGE_FIELD_RULES });
export type CagePrepareRequest = z.output<typeof CagePrepareRequest>;

/** The whole policy the owner signs; it replaces the one on chain. */
export const CagePolicyRequest = z.strictObject({
  enabled: z.boolean(),
  skimBps: z.number().int().min(0).max(1000).meta({ description: 'At most 1000 (10 %).' }),
  agent: CageAddress.nullable()
    .optional()
    .meta({ description: 'May act (never change the policy) for the owner; null for none.' }),
  venues: z.array(CageAddress).max(16),
  payees: z.array(CageAddress).max(16),
});
export type CagePolicyRequest = z.output<typeof CagePolicyRequest>;
