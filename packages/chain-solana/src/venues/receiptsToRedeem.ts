import type { Connection, PublicKey } from '@solana/web3.js';
import type { Blocker } from '@yieldrouter/schemas';
import { describeRpcFailure } from '../describeRpcFailure';
import { readAssociatedTokenAmount } from '../readAssociatedTokenAmount';
import type { VenueCallInput } from './solanaVenueProtocol';

/** How a protocol sizes a redeem: its receipts for `amountMicros`, rounded in the owner's favour. */
export interface RedeemSizing<State> {
  /** What the protocol's receipt mint is called in blockers (e.g. "jlUSDC"). */
  readonly receipt: string;
  readonly receiptMint: PublicKey;
  /** Reads the protocol's state (fails closed: throws). */
  read(connection: Connection): Promise<State>;
  /** The receipts whose redeem pays at least `amountMicros`, capped at `held`. */
  size(state: State, amountMicros: bigint, held: bigint): bigint;
}

/**
 * The receipts a withdrawal of `input.amountMicros` redeems, from the protocol's state and the
 * receipts in the owner's associated token account (the account the leg redeems from; receipts
 * held elsewhere are not redeemable by the leg) read together; a blocker when the state cannot be read (`rpc_unavailable`) or
 * the owner holds none (`nothing_staked`).
 */
export async function receiptsToRedeem<State>(
  input: VenueCallInput,
  sizing: RedeemSizing<State>,
): Promise<bigint | { readonly blockers: readonly Blocker[] }> {
  const { context, owner, amountMicros } = input;
  if (context.rpc.status !== 'ok') {
    return { blockers: [{ code: 'rpc_unavailable', message: `Solana: ${context.rpc.detail}` }] };
  }
  try {
    const [state, held] = await Promise.all([
      sizing.read(context.rpc.connection),
      readAssociatedTokenAmount(context.rpc.connection, owner, sizing.receiptMint),
    ]);
    const receipts = sizing.size(state, amountMicros, held);
    if (receipts === 0n) {
      return {
        blockers: [
          {
            code: 'nothing_staked',
            message: `the owner holds no ${sizing.receipt} (${sizing.receiptMint.toBase58()})`,
            field: 'amountMicros',
          },
        ],
      };
    }
    return receipts;
  } catch (error) {
    const failure = describeRpcFailure(error, sizing.receipt);
    return {
      blockers: [
        { code: 'rpc_unavailable', message: failure.detail, details: { reason: failure.reason } },
      ],
    };
  }
}

/** A configured id of the venue (every name of the protocol's `idNames` is resolved first). */
export function venueId(ids: Readonly<Record<string, PublicKey>>, name: string): PublicKey {
  const value = ids[name];
  if (!value) throw new RangeError(`venue id ${name} was not resolved`);
  return value;
}
