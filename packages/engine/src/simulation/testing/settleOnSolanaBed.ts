// Test support: a venue plan prepared, signed by its owner, landed on the Solana bed and settled.
import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import type { Books } from '@yieldrouter/ledger';
import type { ChainAdapters } from '../../chains/chainsConfig';
import { readPlan } from '../../plan/readPlan';
import type { VenueConfig } from '../../venues/venueConfig';
import { settleLeg } from '../../wallet/settleLeg';
import { prepareVenuePlan } from './prepareVenuePlan';

/**
 * Prepares `kind` of `amountMicros` at venue `id` for `owner`, signs and sends its one leg (after
 * `meanwhile`, what happens on chain between prepare and landing; when it returns true the
 * wallet signs on a newer blockhash), and settles it. Throws when the leg does not land cleanly.
 * Returns the plan's simulation, the settled leg, and the divergences recorded for the plan.
 */
export async function settleOnSolanaBed(
  context: {
    readonly db: Books;
    readonly adapters: ChainAdapters;
    readonly venues: VenueConfig;
    readonly solana: SolanaBed;
  },
  plan: {
    readonly kind: 'deposit' | 'withdraw';
    readonly id: string;
    readonly owner: Keypair;
    readonly amountMicros: bigint;
  },
  meanwhile = (): boolean => false,
) {
  const { db, adapters, venues, solana } = context;
  const { kind, id, owner, amountMicros } = plan;
  const prepared = await prepareVenuePlan(
    { db, adapters, venues },
    { kind, id, owner: owner.publicKey.toBase58(), amountMicros },
  );
  const wire = prepared.legs?.[0]?.transaction;
  if (typeof wire !== 'string') throw new Error(JSON.stringify(prepared));
  const transaction = VersionedTransaction.deserialize(Buffer.from(wire, 'base64'));
  if (meanwhile()) transaction.message.recentBlockhash = solana.latestBlockhash();
  transaction.sign([owner]);
  const landed = solana.send(transaction);
  if (!landed.landed || landed.entry.err !== null)
    throw new Error(
      JSON.stringify(landed, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    );
  const settled = await settleLeg({
    db,
    adapters,
    venues,
    planId: prepared.planId as string,
    legIndex: 0,
    txId: landed.entry.signature,
    now: new Date(),
  });
  const { divergences } = await readPlan(db, prepared.planId as string);
  return { simulation: prepared.simulation, settled, divergences };
}

/** The owner's position as the books hold it (its shares) and the receipts the chain holds. */
interface BooksAndChain {
  readonly shares: bigint | undefined;
  readonly receipts: bigint;
}

/** A part withdrawal: what was asked, what the owner received, the position before and after. */
interface Withdrawn {
  readonly asked: bigint;
  readonly received: bigint;
  readonly before: BooksAndChain;
  readonly after: BooksAndChain;
}

/**
 * An honest part withdrawal of `asked`, settled: the owner received at least what was asked, the
 * leg settled at what the owner received without review, and the books' shares follow the
 * receipts burnt on chain.
 */
export function expectWithdrawnAsMoved(settled: unknown, moved: Withdrawn): void {
  expectSkimmedWithdrawal(settled, moved);
  expect(settled).toMatchObject({ quotedAmountMicros: String(moved.asked) });
}

/**
 * An honest part withdrawal of `asked` carrying the router's skim (the leg grossed up by it: its
 * quote is not what was asked), settled: the owner received at least what was asked, the leg
 * settled at what the owner received without review, and the books' shares follow the receipts.
 */
export function expectSkimmedWithdrawal(settled: unknown, moved: Withdrawn): void {
  const { asked, received, before, after } = moved;
  expect(received).toBeGreaterThanOrEqual(asked);
  expect(settled).toMatchObject({
    status: 'confirmed',
    settledAmountMicros: String(received),
    reviewReason: null,
  });
  expect(after.shares).toBe(after.receipts);
  expect(after.receipts).toBeLessThan(before.receipts);
}
