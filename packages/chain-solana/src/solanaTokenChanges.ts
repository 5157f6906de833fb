import {
  ACCOUNT_SIZE,
  AccountLayout,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import type { MessageAccountKeys, PublicKey, TokenBalance } from '@solana/web3.js';
import type { ChainBalanceChange } from '@yieldrouter/schemas';
import { SolanaBadResponseError } from './describeRpcFailure';

/** An SPL token account's state: its mint, owner (holder) and amount. */
export interface TokenAccountState {
  readonly mint: string;
  readonly holder: string;
  readonly amount: bigint;
}

/**
 * The token account in an account's data, when it is one: owned by the Token or Token-2022
 * program, at least the token account size (Token-2022 extensions follow it), initialized.
 */
export function tokenAccountState(
  owner: PublicKey | string,
  data: Uint8Array,
): TokenAccountState | undefined {
  const program = typeof owner === 'string' ? owner : owner.toBase58();
  const isToken =
    program === TOKEN_PROGRAM_ID.toBase58() || program === TOKEN_2022_PROGRAM_ID.toBase58();
  if (!isToken || data.length < ACCOUNT_SIZE) return undefined;
  const decoded = AccountLayout.decode(data.subarray(0, ACCOUNT_SIZE));
  // state: 0 uninitialized (a mint of Token-2022 is longer than an account; never state 1/2).
  if (decoded.state === 0) return undefined;
  return {
    mint: decoded.mint.toBase58(),
    holder: decoded.owner.toBase58(),
    amount: decoded.amount,
  };
}

/**
 * post − pre of each token account, one change per account that moved (an account absent on
 * one side counts 0 there: created or closed by the transaction). `account` is the token account,
 * `holder` its owner, `asset` its mint. The same reading for a simulation (account snapshots)
 * and a landed transaction (`pre/postTokenBalances`), so the two compare account by account.
 */
export function tokenAccountChanges(
  before: ReadonlyMap<string, TokenAccountState>,
  after: ReadonlyMap<string, TokenAccountState>,
): ChainBalanceChange[] {
  const changes: ChainBalanceChange[] = [];
  for (const account of new Set([...before.keys(), ...after.keys()])) {
    const pre = before.get(account);
    const post = after.get(account);
    const known = (post ?? pre) as TokenAccountState;
    const delta = (post?.amount ?? 0n) - (pre?.amount ?? 0n);
    if (delta !== 0n) changes.push({ account, holder: known.holder, asset: known.mint, delta });
  }
  return changes;
}

/** A transaction's `pre/postTokenBalances` as token account states by address. */
export function tokenBalanceStates(
  balances: readonly TokenBalance[],
  keys: MessageAccountKeys,
): Map<string, TokenAccountState> {
  const states = new Map<string, TokenAccountState>();
  for (const balance of balances) {
    const account = keys.get(balance.accountIndex);
    const { amount } = balance.uiTokenAmount;
    if (!account || !/^\d+$/.test(amount) || !balance.owner) {
      throw new SolanaBadResponseError(`token balance ${balance.accountIndex} is not readable`);
    }
    states.set(account.toBase58(), {
      mint: balance.mint,
      holder: balance.owner,
      amount: BigInt(amount),
    });
  }
  return states;
}
