// Test support: swap and gas-sponsor (unwrap) plans stored the way production stores them, and a
// fake chain that answers their receipts through the adapter contract (readSwapReceipt,
// readUnwrapReceipt). Product code never imports it.
import { insertPlan, postJournalEntry } from '@yieldrouter/ledger';
import type { Books, SettlementBooks } from '@yieldrouter/ledger';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../../chains/chainsConfig';
import { fakeBase58 } from './fakeChain';
import type { FakeChain } from './fakeChain';

export const FAKE_USDC = {
  symbol: 'USDC',
  address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
};
export const FAKE_WSOL = { symbol: 'SOL', address: 'So11111111111111111111111111111111111111112' };
/** The books' name of wrapped SOL (its mint). */
export const WSOL_ASSET = FAKE_WSOL.address;
const SWAP_TARGET = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';

interface Token {
  readonly symbol: string;
  readonly address: string;
}

/** A landed swap or unwrap the fake chain answers for. */
type Landed =
  | {
      readonly kind: 'swap';
      readonly planId: string;
      readonly amountIn: bigint;
      readonly amountOut: bigint;
      readonly ok: boolean;
    }
  | { readonly kind: 'unwrap'; readonly planId: string; readonly amount: bigint };

export interface SwapChain {
  readonly adapters: ChainAdapters;
  /** The owner's swap lands: `amountIn` of the plan's input for `amountOut` of its output. */
  swap(planId: string, amountIn: bigint, amountOut: bigint, options?: { ok?: boolean }): string;
  /** The owner's unwrap lands: `amount` of wrapped native became native. */
  unwrap(planId: string, amount: bigint): string;
}

/** The fake chain's Solana adapter, answering swap and unwrap receipts of what landed. */
export function swapChain(chain: FakeChain): SwapChain {
  const landed = new Map<string, Landed>();
  const solana = chain.adapters.solana;
  const adapters: ChainAdapters = {
    ...chain.adapters,
    solana: {
      ...solana,
      readSwapReceipt: async ({ txId, planId }) => {
        const tx = landed.get(txId);
        if (!tx) return { status: 'pending', txId };
        if (tx.kind !== 'swap' || tx.planId !== planId) {
          return { status: 'mismatch', txId, reason: `no memo svc:${planId}` };
        }
        if (!tx.ok) return { status: 'failed', txId, reason: 'slippage exceeded' };
        return {
          status: 'confirmed',
          txId,
          amountInMicros: tx.amountIn,
          amountOutMicros: tx.amountOut,
          feePaidMicros: 0n,
          block: '1',
        };
      },
      readUnwrapReceipt: async ({ txId, planId }) => {
        const tx = landed.get(txId);
        if (!tx) return { status: 'pending', txId };
        if (tx.kind !== 'unwrap' || tx.planId !== planId) {
          return { status: 'mismatch', txId, reason: `no memo svc:${planId}` };
        }
        return { status: 'confirmed', txId, amount: tx.amount, block: '1' };
      },
    },
  };
  return {
    adapters,
    swap(planId, amountIn, amountOut, options = {}) {
      const txId = fakeBase58(88);
      landed.set(txId, { kind: 'swap', planId, amountIn, amountOut, ok: options.ok ?? true });
      return txId;
    },
    unwrap(planId, amount) {
      const txId = fakeBase58(88);
      landed.set(txId, { kind: 'unwrap', planId, amount });
      return txId;
    },
  };
}

const leg = (action: string, amountMicros: bigint, effect: 'swap' | 'unwrap') => ({
  action,
  summary: `${action} ${amountMicros}`,
  amountMicros,
  settles: true,
  payload: { encoding: 'solana-v0-base64', transaction: '', lastValidBlockHeight: '1' },
  effect,
  minSettleMicros: 0n,
  maxSettleMicros: 2n ** 62n,
});

const storedSwap = (input: Token, output: Token) => ({
  inputToken: input.symbol,
  outputToken: output.symbol,
  inputTokenAddress: input.address,
  outputTokenAddress: output.address,
  swapTarget: SWAP_TARGET,
  minAmountOutMicros: '0',
  feeRecipient: null,
});

/** A prepared swap plan of `wallet` on Solana (one swap leg): its id. */
export async function storeSwapPlan(
  db: Books,
  wallet: string,
  input: Token,
  output: Token,
  amountIn: bigint,
): Promise<string> {
  const id = newPlanId();
  await insertPlan(db, {
    id,
    kind: 'swap',
    status: 'prepared',
    chain: 'solana',
    venueId: null,
    owner: wallet,
    wallet,
    amountMicros: amountIn,
    feeMicros: 0n,
    request: {},
    blockers: [],
    swap: storedSwap(input, output),
    legs: [leg('swap', amountIn, 'swap')],
  });
  return id;
}

/** A prepared gas top-up on Solana: swap USDC into wrapped SOL (leg 0), then unwrap (leg 1). */
export async function storeGasSponsorPlan(
  db: Books,
  wallet: string,
  amountIn: bigint,
): Promise<string> {
  const id = newPlanId();
  await insertPlan(db, {
    id,
    kind: 'gas_sponsor',
    status: 'prepared',
    chain: 'solana',
    venueId: null,
    owner: wallet,
    wallet,
    amountMicros: 0n,
    feeMicros: 0n,
    request: {},
    blockers: [],
    swap: storedSwap(FAKE_USDC, FAKE_WSOL),
    legs: [leg('swap', amountIn, 'swap'), leg('unwrap', 0n, 'unwrap')],
  });
  return id;
}

/** USDC the wallet holds on Solana, as a settled route would have credited it. */
export async function creditLiquid(db: Books, wallet: string, micros: bigint) {
  await db.transaction((tx) =>
    postJournalEntry(tx, {
      kind: 'test.funded',
      memo: 'test: USDC routed in',
      postings: [
        { account: { system: 'external', chain: 'solana' }, amountMicros: -micros },
        { account: { wallet, chain: 'solana', bucket: 'liquid' }, amountMicros: micros },
      ],
    }),
  );
}

/**
 * The books, with the first outcome recorded for `planId` held until `release` is called: that
 * settlement has read what it books from and waits there, so another can commit first.
 */
export function holdFirstOutcome(db: Books, planId: string) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reach: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  let held = false;
  const settlements: SettlementBooks = {
    find: (key) => db.settlements.find(key),
    record: async (input) => {
      if (input.planId === planId && !held) {
        held = true;
        reach();
        await gate;
      }
      return db.settlements.record(input);
    },
  };
  const gated = new Proxy(db, {
    get: (target, property) =>
      property === 'settlements' ? settlements : Reflect.get(target, property),
  });
  return { db: gated, reached, release: () => release() };
}
