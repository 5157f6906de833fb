import { z } from 'zod';
import { Chain } from './chains';
import { UnavailableReasonCode } from './chainDocuments';
import type { Unavailable, UnsignedPayload } from './chainAdapter';

// What a plan's legs do on chain when simulated at prepare (issue 44), and what settlement found
// when a leg's transaction did otherwise. Amounts are base units as decimal strings, signed.

const Sha256Digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);

const SignedAmount = z
  .string()
  .regex(/^-?(0|[1-9][0-9]*)$/)
  .meta({ description: "A signed amount in the asset's base units (micros for USDC)." });

export const BalanceChangeRole = z.enum(['owner', 'venue', 'treasury', 'payee', 'other']).meta({
  description:
    "Whose balance: the plan's owner, the venue the leg enters or leaves (its configured " +
    'contracts, and the contracts its settling legs call: a swap router, a bridge messenger), ' +
    "the service's treasury, the plan's payee (auto-pay), or anyone else (a fee-on-transfer " +
    "token's collector, a skimmer): an `other` is always reported.",
});

export const BalanceChange = z
  .object({
    account: z.string().meta({
      description:
        "The address, in the chain's canonical form: the holder (EVM, Sui), the SPL token " +
        'account (Solana; its owner is `holder`).',
    }),
    holder: z
      .string()
      .optional()
      .meta({
        description:
          "Solana: the token account's owner (a wallet, or a program's authority). The role is " +
          "the account's or, failing that, the holder's.",
      }),
    role: BalanceChangeRole,
    asset: z.string().meta({ description: 'The token (contract address, mint, coin type).' }),
    usdc: z.boolean().meta({ description: "True for the chain's configured USDC." }),
    delta: SignedAmount,
  })
  .meta({ description: "One account's balance change in one asset." });
export type BalanceChange = z.infer<typeof BalanceChange>;

export const AllowanceChange = z
  .object({
    holder: z.string().meta({ description: 'Whose tokens the spender may take.' }),
    spender: z.string(),
    role: BalanceChangeRole.meta({ description: "The spender's role to this plan." }),
    asset: z.string(),
    usdc: z.boolean(),
    allowance: SignedAmount.meta({
      description: "The spender's allowance after the leg (the token's Approval event).",
    }),
  })
  .meta({
    description: "An approval: a change of the spender's allowance over the holder's tokens.",
  });
export type AllowanceChange = z.infer<typeof AllowanceChange>;

export const SimulatedLeg = z.object({
  index: z.number().int(),
  bytesDigest: Sha256Digest.meta({
    description:
      '`sha256:<hex>` of the leg: `<encoding>\\n<transaction>`, the transaction as is when a ' +
      'string and as its canonical JSON when an object (an EVM request: keys sorted, no ' +
      'whitespace, whatever order they are served in). Binds the outcome to the exact unsigned ' +
      'bytes; `legBytesDigest` of `@yieldrouter/sdk/verify` computes it.',
  }),
  outcome: z.enum(['ok', 'reverted', 'deferred']).meta({
    description:
      'ok / reverted: the leg was run. deferred (Solana, Sui: a node simulates one transaction ' +
      'on the current state): the leg runs on what the leg it `waitsFor` leaves, so it is ' +
      'simulated once that leg settles, on the state the chain then has; until then it has no ' +
      'changes and no findings (never guessed). Fetch the plan again before signing it.',
  }),
  waitsFor: z.number().int().optional().meta({
    description: 'A deferred leg: the leg whose settlement its simulation waits for.',
  }),
  block: z
    .string()
    .nullable()
    .optional()
    .meta({
      description:
        'A leg simulated after the leg before it settled: the state it ran on (the slot on Solana, ' +
        "the latest checkpoint on Sui). Absent: the plan's `block`.",
    }),
  detail: z.string().optional().meta({ description: 'Why the simulated call reverted.' }),
  changes: z.array(BalanceChange).meta({
    description: 'Every token balance the leg moves: USDC, receipt tokens (shares), any other.',
  }),
  calls: z.array(z.string()).optional().meta({
    description: 'The contracts (programs, Move targets) the leg calls.',
  }),
  approvals: z.array(AllowanceChange).optional().meta({
    description: 'The allowances the leg sets (absent in plans stored before they were read).',
  }),
  unobserved: z
    .array(z.object({ role: BalanceChangeRole, reason: z.string() }))
    .optional()
    .meta({
      description:
        "Whose balance the chain's simulation cannot show for this leg, and why (Sui: a venue " +
        'holds USDC as a `Balance` inside its shared objects, which balance changes do not ' +
        'list). Not judged, never guessed.',
    }),
});
export type SimulatedLeg = z.infer<typeof SimulatedLeg>;

export const SimulationFindingCode = z.enum([
  'reverted',
  'owner_amount_mismatch',
  'venue_amount_mismatch',
  'unexpected_recipient',
  'payee_amount_mismatch',
  'treasury_amount_mismatch',
  'approval_foreign_spender',
  'approval_beyond_amount',
]);

export const SimulationFinding = z
  .object({
    legIndex: z.number().int(),
    code: SimulationFindingCode,
    message: z.string(),
  })
  .meta({ description: 'Where the simulated outcome differs from what the plan says it does.' });
export type SimulationFinding = z.infer<typeof SimulationFinding>;

export const PlanSimulation = z
  .discriminatedUnion('status', [
    z.object({
      status: z.literal('simulated'),
      chain: Chain,
      method: z.enum(['eth_simulateV1', 'simulateTransaction', 'dryRunTransactionBlock']),
      block: z
        .string()
        .nullable()
        .meta({
          description:
            'The state the legs ran on: the block (EVM), the slot (Solana), the latest checkpoint ' +
            'when the dry run ran (Sui; null when it could not be read).',
        }),
      legs: z.array(SimulatedLeg),
      findings: z.array(SimulationFinding).meta({
        description:
          "Empty when the simulated USDC changes are exactly the plan's: the owner sends (or " +
          'receives) the leg amount and the venue receives (or pays) it, nobody else.',
      }),
      digest: Sha256Digest.meta({
        description:
          '`sha256:<hex>` of the canonical JSON (keys sorted, no whitespace) of ' +
          '`{ planId, legs }`: what a divergence names.',
      }),
    }),
    z.object({
      status: z.literal('unavailable'),
      reason: z.union([UnavailableReasonCode, z.literal('not_supported')]),
      detail: z.string(),
    }),
  ])
  .meta({
    description:
      "The plan's legs simulated on their chain at prepare (EVM: eth_simulateV1 of every leg " +
      'in order): the balance changes of every account each leg touches, bound to the unsigned ' +
      'bytes by digest. `unavailable` when the chain could not be read: never a guessed outcome.',
  });
export type PlanSimulation = z.infer<typeof PlanSimulation>;

export const DivergentChange = z.object({
  account: z.string(),
  holder: z.string().optional().meta({ description: "Solana: the token account's owner." }),
  role: BalanceChangeRole,
  asset: z.string(),
  simulated: SignedAmount,
  actual: SignedAmount,
  tolerance: SignedAmount.optional().meta({
    description:
      "The plan's stated bound for this change (a swap's slippage on its output); absent: zero.",
  }),
});
export type DivergentChange = z.infer<typeof DivergentChange>;

export const PlanDivergence = z
  .object({
    legIndex: z.number().int(),
    txId: z.string(),
    simulationDigest: Sha256Digest,
    changes: z.array(DivergentChange).meta({
      description: 'Each USDC balance the transaction moved otherwise than the simulation said.',
    }),
    recordedAt: z.string(),
  })
  .meta({
    description:
      "A settled leg whose transaction moved USDC otherwise than the plan's simulation (zero " +
      "tolerance: the amounts are the plan's own). The books still follow the receipt; the leg " +
      'is flagged and `plan.divergence` is sent.',
  });
export type PlanDivergence = z.infer<typeof PlanDivergence>;

/** One balance change as an adapter reads it (bigint; the engine assigns roles). */
export interface ChainBalanceChange {
  /** The holder (EVM, Sui) or the SPL token account (Solana). */
  readonly account: string;
  /** Solana: the token account's owner. */
  readonly holder?: string;
  readonly asset: string;
  readonly delta: bigint;
}

/** An approval as an adapter reads it: the spender's allowance after the call. */
export interface ChainApproval {
  readonly holder: string;
  readonly spender: string;
  readonly asset: string;
  readonly allowance: bigint;
}

/** What to simulate: one chain's unsigned legs, in order, sent by `owner`. */
export interface LegSimulationQuery {
  readonly owner: string;
  readonly payloads: readonly UnsignedPayload[];
}

export type LegSimulationReading =
  | {
      readonly status: 'ok';
      readonly method: 'eth_simulateV1' | 'simulateTransaction' | 'dryRunTransactionBlock';
      readonly block: string | null;
      /** The chain's configured USDC (canonical form). */
      readonly usdc: string | null;
      /**
       * The accounts a leg's own program pays the service's treasury (the Solana router's
       * treasury USDC account, as its registry names it): role `treasury`.
       */
      readonly treasury?: readonly string[];
      /**
       * The accounts of the program a leg calls that hold what it is paid (the Solana router's
       * PDA, holder of its vault): role `venue`, as a contract a leg calls is on EVM.
       */
      readonly venue?: readonly string[];
      readonly legs: readonly {
        /** deferred: not run (it runs on what the leg before it leaves; simulated later). */
        readonly outcome: 'ok' | 'reverted' | 'deferred';
        readonly detail?: string;
        readonly changes: readonly ChainBalanceChange[];
        /** The contracts (programs) the leg calls. */
        readonly calls?: readonly string[];
        readonly approvals?: readonly ChainApproval[];
        /** Whose balance the simulation cannot show, and why. */
        readonly unobserved?: readonly {
          readonly role: z.infer<typeof BalanceChangeRole>;
          readonly reason: string;
        }[];
      }[];
    }
  | Unavailable
  /** The chain can be read but cannot show what the legs need (the detail says what and why). */
  | { readonly status: 'unavailable'; readonly reason: 'not_supported'; readonly detail: string };

/** What a mined transaction moved (token balance changes), or not mined yet. */
export type LegChangesReading =
  | {
      readonly status: 'ok';
      readonly changes: readonly ChainBalanceChange[];
      /** Where it landed: its slot (Solana), its checkpoint (Sui); absent when not known. */
      readonly block?: string;
    }
  | { readonly status: 'pending' }
  | Unavailable;
