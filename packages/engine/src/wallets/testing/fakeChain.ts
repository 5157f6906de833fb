// Test support: a chain whose "transactions" are executed by the test, with receipts shaped
// like the real adapters' (Receipt from the adapter contract). Product code never imports it.
import { randomBytes } from 'node:crypto';
import type {
  ChainAdapter,
  LegBuild,
  LegRequest,
  PositionValue,
  Receipt,
} from '@yieldrouter/schemas';
import type { ChainAdapters } from '../../chains/chainsConfig';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A Solana-looking address or signature (base58 of random bytes). */
export function fakeBase58(length = 44): string {
  return Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

interface Landed {
  readonly planId: string;
  readonly amountMicros: bigint;
  readonly ok: boolean;
}

export interface FakeChain {
  readonly adapters: ChainAdapters;
  /** The owner signs and the chain runs a leg: moves `amountMicros` (the quote unless told). */
  execute(
    leg: { planId: string; amountMicros: bigint },
    options?: { amountMicros?: bigint; ok?: boolean },
  ): string;
  /** What the owner's position in a venue is worth on chain; unset → unavailable. */
  setPositionValue(owner: string, venueId: string, valueMicros: bigint | undefined): void;
}

/** Solana served by an in-memory chain; the other chains refuse every address. */
export function fakeChain(): FakeChain {
  const landed = new Map<string, Landed>();
  const values = new Map<string, bigint>();
  const build =
    (action: 'deposit' | 'withdraw') =>
    async (request: LegRequest): Promise<LegBuild> => ({
      status: 'prepared',
      legs: [
        {
          chain: 'solana',
          action,
          summary: `${action} ${request.amountMicros} micros (${request.planId})`,
          planId: request.planId,
          amountMicros: request.amountMicros,
          settles: true,
          payload: {
            encoding: 'solana-v0-base64',
            transaction: Buffer.from(
              `${action}:${request.planId}:${request.amountMicros}`,
            ).toString('base64'),
            lastValidBlockHeight: '1',
          },
        },
      ],
    });
  const solana: ChainAdapter = {
    chain: 'solana',
    normalizeAddress: (address) => (BASE58.test(address) ? address : undefined),
    readBalances: async () => [],
    buildDeposit: build('deposit'),
    buildWithdraw: build('withdraw'),
    readReceipt: async ({ txId }): Promise<Receipt> => {
      const tx = landed.get(txId);
      if (!tx) return { status: 'pending', txId };
      if (!tx.ok)
        return { status: 'failed', txId, reason: 'InstructionError: custom program error 0x1' };
      return {
        status: 'confirmed',
        txId,
        planId: tx.planId,
        amountMicros: tx.amountMicros,
        block: '1',
      };
    },
    checkSignedLeg: async () => ({ status: 'mismatch', reason: 'the fake chain takes no bytes' }),
    broadcast: async () => ({ status: 'rejected', reason: 'the fake chain takes no broadcasts' }),
    readPositionValue: async (venue, owner): Promise<PositionValue> => {
      const valueMicros = values.get(`${owner}/${venue.venueId}`);
      return valueMicros === undefined
        ? { status: 'unavailable', reason: 'rpc_error', detail: 'fake: no value set' }
        : { status: 'ok', valueMicros, asOf: new Date() };
    },
  };
  const refuse = (chain: 'sui' | 'base' | 'arbitrum'): ChainAdapter => ({
    ...solana,
    chain,
    normalizeAddress: () => undefined,
  });
  return {
    adapters: { solana, sui: refuse('sui'), base: refuse('base'), arbitrum: refuse('arbitrum') },
    execute(leg, options = {}) {
      const txId = fakeBase58(88);
      landed.set(txId, {
        planId: leg.planId,
        amountMicros: options.amountMicros ?? leg.amountMicros,
        ok: options.ok ?? true,
      });
      return txId;
    },
    setPositionValue(owner, venueId, valueMicros) {
      if (valueMicros === undefined) values.delete(`${owner}/${venueId}`);
      else values.set(`${owner}/${venueId}`, valueMicros);
    },
  };
}
