import { BOOKS_ASSET } from '@yieldrouter/ledger';
import type { AccountRef, LedgerChain, PostingInput } from '@yieldrouter/ledger';

/**
 * The asset a swap token is in the books (DESIGN §3): USDC is the books' unit; any other token
 * is its id on the chain — an EVM address in lower case (so a checksummed and a plain spelling
 * are one asset), a Solana mint or a Sui coin type as is — or `native` for the chain's gas coin.
 */
export function ledgerAssetOf(token: { readonly symbol: string; readonly address: string }) {
  if (token.symbol === BOOKS_ASSET) return BOOKS_ASSET;
  return /^0x[0-9a-fA-F]{40}$/.test(token.address) ? token.address.toLowerCase() : token.address;
}

/** The chain's native gas coin, as the books name it. */
export const NATIVE_ASSET = 'native';

/** What a confirmed swap moved, from its receipt (whatever the chain): never the quote. */
export interface SwapMovement {
  readonly inputAsset: string;
  readonly outputAsset: string;
  /** What the owner sent of the input (the service fee included). */
  readonly amountIn: bigint;
  /** What the owner received of the output. */
  readonly amountOut: bigint;
  /** What the owner paid the service's fee recipient, in the input. */
  readonly feePaid: bigint;
}

/** The wallet and chain a swap settles in. */
export interface SwapWallet {
  readonly wallet: string;
  readonly chain: LedgerChain;
}

const liquid = ({ wallet, chain }: SwapWallet, asset: string): AccountRef => ({
  wallet,
  chain,
  bucket: 'liquid',
  asset,
});
const external = ({ chain }: SwapWallet, asset: string): AccountRef => ({
  system: 'external',
  chain,
  asset,
});
const fees = ({ chain }: SwapWallet, asset: string): AccountRef =>
  asset === BOOKS_ASSET ? { system: 'fees:protocol' } : { system: 'fees:protocol', chain, asset };

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * A confirmed swap in the books, per asset (each asset's postings sum to zero): the input the
 * owner sent leaves the wallet's `liquid` in the input asset — as far as the books hold it
 * (`inputHeld`); the rest was the owner's money outside the books, and stays outside them — for
 * the chain, except the service fee, which goes to fees:protocol (in the input asset); the
 * output the owner received comes into `liquid` in the output asset, from the chain. Amounts
 * are the receipt's, in each asset's own base units.
 */
export function bookSwap(
  at: SwapWallet,
  movement: SwapMovement,
  inputHeld: bigint,
): PostingInput[] {
  const { inputAsset, outputAsset, amountIn, amountOut } = movement;
  if (inputAsset === outputAsset) throw new Error(`a swap of ${inputAsset} into itself`);
  const covered = min(amountIn, inputHeld > 0n ? inputHeld : 0n);
  const fee = min(movement.feePaid, amountIn);
  const lines = new Map<string, { account: AccountRef; amount: bigint }>();
  const add = (key: string, account: AccountRef, amount: bigint) => {
    const line = lines.get(key);
    lines.set(key, { account, amount: (line?.amount ?? 0n) + amount });
  };
  const move = (from: [string, AccountRef], to: [string, AccountRef], amount: bigint) => {
    if (amount <= 0n) return;
    add(from[0], from[1], -amount);
    add(to[0], to[1], amount);
  };
  const inLiquid: [string, AccountRef] = ['in:liquid', liquid(at, inputAsset)];
  const inExternal: [string, AccountRef] = ['in:external', external(at, inputAsset)];
  move(inLiquid, inExternal, covered);
  move(inExternal, ['in:fees', fees(at, inputAsset)], fee);
  move(
    ['out:external', external(at, outputAsset)],
    ['out:liquid', liquid(at, outputAsset)],
    amountOut,
  );
  return [...lines.values()]
    .filter((line) => line.amount !== 0n)
    .map((line) => ({ account: line.account, amountMicros: line.amount }));
}

/**
 * An unwrap (wrapped native → native gas, 1:1) in the books: what the receipt proves was
 * unwrapped leaves `liquid` in the wrapped asset (as far as the books hold it; the rest was
 * outside them) and comes into `liquid` in the native asset.
 */
export function bookUnwrap(
  at: SwapWallet,
  wrappedAsset: string,
  amount: bigint,
  wrappedHeld: bigint,
  /** `wrap`: the reverse (issue 41) — native out of liquid as far as held, wrapped in. */
  direction: 'wrap' | 'unwrap' = 'unwrap',
): PostingInput[] {
  const [inputAsset, outputAsset] =
    direction === 'wrap' ? [NATIVE_ASSET, wrappedAsset] : [wrappedAsset, NATIVE_ASSET];
  return bookSwap(
    at,
    {
      inputAsset,
      outputAsset,
      amountIn: amount,
      amountOut: amount,
      feePaid: 0n,
    },
    wrappedHeld,
  );
}
