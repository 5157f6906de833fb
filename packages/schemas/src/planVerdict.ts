import { z } from 'zod';
import { PlanDocument } from './planDocuments';

// The offline plan verifier's arguments and verdict as JSON (the MCP tool `verifyPlan`; the SDK's
// `@yieldrouter/sdk/verify` returns the same shape with amounts as bigint).

const Addresses = z.array(z.string().min(1).max(200)).max(200);

export const VerifyPlanArguments = z
  .strictObject({
    plan: PlanDocument.meta({
      description: 'The plan document as prepare (or GET /svc/plans/{planId}) answered it.',
    }),
    owner: z.string().min(1).max(200).meta({ description: 'The wallet that signs every leg.' }),
    venues: Addresses.optional().meta({
      description:
        'Contracts, programs, packages and accounts the owner accepts money going to or through ' +
        '(the ids GET /svc/packages lists, tokens, a swap source). An approval must name one.',
    }),
    payees: Addresses.optional().meta({ description: 'Whom the owner pays on purpose.' }),
    feeRecipients: Addresses.optional().meta({
      description: 'Fee recipients the plan discloses; a transfer to one must match a fee line.',
    }),
    lookupTables: z
      .record(z.string(), Addresses)
      .optional()
      .meta({ description: 'Solana: address lookup table → its addresses, in order.' }),
  })
  .meta({ description: 'What verifyPlan checks a plan against: the owner and whom they expect.' });
export type VerifyPlanArguments = z.infer<typeof VerifyPlanArguments>;

const Amount = z.string().regex(/^(0|[1-9][0-9]*)$/);

export const VerifyReasonCode = z.enum([
  'not_prepared',
  'owner_mismatch',
  'sender_not_owner',
  'plan_tag_missing',
  'plan_tag_mismatch',
  'unknown_destination',
  'approval_to_foreign_spender',
  'approval_exceeds_amount',
  'amount_mismatch',
  'fee_mismatch',
  'unexpected_value',
  'unknown_call',
  'undecodable',
  'simulation_finding',
  'bytes_digest_mismatch',
]);

export const PlanVerdictDocument = z
  .object({
    status: z.enum(['verified', 'rejected', 'incomplete']).meta({
      description:
        'verified: every leg decoded and passed; rejected: see reasons (do not sign); ' +
        'incomplete: nothing failed but part of a leg could not be read offline (see gaps).',
    }),
    planId: z.string().optional(),
    reasons: z.array(
      z.object({ code: VerifyReasonCode, leg: z.number().int().optional(), message: z.string() }),
    ),
    gaps: z.array(
      z.object({
        code: z.enum(['opaque_swap_call', 'lookup_table_unresolved', 'simulation_deferred']),
        leg: z.number().int(),
        message: z.string(),
      }),
    ),
    legs: z.array(
      z.object({
        index: z.number().int(),
        encoding: z.string(),
        effects: z.array(
          z.object({
            kind: z.enum(['approve', 'transfer', 'venue_call', 'send_object']),
            token: z.string().optional(),
            spender: z.string().optional(),
            to: z.string().optional(),
            target: z.string().optional(),
            call: z.string().optional(),
            beneficiary: z.string().optional(),
            amount: Amount.optional().meta({ description: "In the token's base units." }),
          }),
        ),
      }),
    ),
  })
  .meta({
    description:
      "The offline verifier's verdict on a plan's unsigned legs, decoded without a network.",
  });
export type PlanVerdictDocument = z.infer<typeof PlanVerdictDocument>;
