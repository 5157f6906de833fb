import { PublicKey } from '@solana/web3.js';

/**
 * marginfi v2 account state, by the published IDL 0.1.8 (`@mrgnlabs/marginfi-client-v2` 6.4.2,
 * `dist/idl/marginfi_0.1.8.json`; both accounts are bytemuck `repr(C)` after the 8-byte Anchor
 * discriminator; offsets checked against the package's Anchor coder in the test).
 *
 * marginfi mints no receipt token: a deposit adds asset shares to a balance inside the owner's
 * MarginfiAccount, and the bank's `asset_share_value` (I80F48) says what one share is worth.
 */

/** I80F48: a signed 128-bit fixed-point number with 48 fraction bits (raw value, little endian). */
export const I80F48_FRACTION_BITS = 48n;
export const I80F48_ONE = 1n << I80F48_FRACTION_BITS;

export const MARGINFI_BANK_DISCRIMINATOR = [142, 49, 166, 242, 50, 66, 97, 188] as const;
export const MARGINFI_ACCOUNT_DISCRIMINATOR = [67, 178, 130, 109, 126, 114, 28, 42] as const;
export const MARGINFI_BANK_LENGTH = 1864;
export const MARGINFI_ACCOUNT_LENGTH = 2312;

/** Field offsets in the account data (discriminator included). */
export const MARGINFI_BANK_OFFSETS = {
  mint: 8,
  mintDecimals: 40,
  group: 41,
  assetShareValue: 80,
  liabilityShareValue: 96,
  liquidityVault: 112,
  totalAssetShares: 272,
} as const;
export const MARGINFI_ACCOUNT_OFFSETS = {
  group: 8,
  authority: 40,
  balances: 72,
} as const;
/** One `Balance` (104 bytes) and the offsets of its fields; 16 balances per account. */
export const MARGINFI_BALANCE = {
  length: 104,
  count: 16,
  active: 0,
  bankPk: 1,
  assetShares: 40,
  liabilityShares: 56,
} as const;

export interface MarginfiBank {
  readonly mint: PublicKey;
  readonly mintDecimals: number;
  readonly group: PublicKey;
  /** I80F48 raw: the USDC (native units) one asset share is worth. */
  readonly assetShareValue: bigint;
  readonly liabilityShareValue: bigint;
  readonly liquidityVault: PublicKey;
  readonly totalAssetShares: bigint;
}

export interface MarginfiBalance {
  readonly bank: PublicKey;
  /** I80F48 raw. */
  readonly assetShares: bigint;
  /** I80F48 raw. */
  readonly liabilityShares: bigint;
}

export interface MarginfiAccountState {
  readonly group: PublicKey;
  readonly authority: PublicKey;
  /** The active balances, in the account's order. */
  readonly balances: readonly MarginfiBalance[];
}

const readI128 = (bytes: Buffer, offset: number): bigint =>
  BigInt.asIntN(128, bytes.readBigUInt64LE(offset) + (bytes.readBigUInt64LE(offset + 8) << 64n));

function accountBytes(
  data: Uint8Array,
  length: number,
  discriminator: readonly number[],
  what: string,
): Buffer {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (bytes.length !== length) throw new RangeError(`not a marginfi ${what} (length)`);
  if (!bytes.subarray(0, 8).equals(Buffer.from(discriminator))) {
    throw new RangeError(`not a marginfi ${what} (discriminator)`);
  }
  return bytes;
}

const keyAt = (bytes: Buffer, offset: number) => new PublicKey(bytes.subarray(offset, offset + 32));

/**
 * Decodes a marginfi Bank account (throws on another account).
 *
 * @example
 * const bank = decodeMarginfiBank(accountInfo.data);
 */
export function decodeMarginfiBank(data: Uint8Array): MarginfiBank {
  const bytes = accountBytes(data, MARGINFI_BANK_LENGTH, MARGINFI_BANK_DISCRIMINATOR, 'Bank');
  const at = MARGINFI_BANK_OFFSETS;
  return {
    mint: keyAt(bytes, at.mint),
    mintDecimals: bytes.readUInt8(at.mintDecimals),
    group: keyAt(bytes, at.group),
    assetShareValue: readI128(bytes, at.assetShareValue),
    liabilityShareValue: readI128(bytes, at.liabilityShareValue),
    liquidityVault: keyAt(bytes, at.liquidityVault),
    totalAssetShares: readI128(bytes, at.totalAssetShares),
  };
}

/**
 * Decodes a MarginfiAccount (throws on another account); inactive balances are left out.
 *
 * @example
 * const account = decodeMarginfiAccount(accountInfo.data);
 */
export function decodeMarginfiAccount(data: Uint8Array): MarginfiAccountState {
  const bytes = accountBytes(
    data,
    MARGINFI_ACCOUNT_LENGTH,
    MARGINFI_ACCOUNT_DISCRIMINATOR,
    'MarginfiAccount',
  );
  const balances: MarginfiBalance[] = [];
  for (let i = 0; i < MARGINFI_BALANCE.count; i += 1) {
    const base = MARGINFI_ACCOUNT_OFFSETS.balances + i * MARGINFI_BALANCE.length;
    if (bytes.readUInt8(base + MARGINFI_BALANCE.active) === 0) continue;
    balances.push({
      bank: keyAt(bytes, base + MARGINFI_BALANCE.bankPk),
      assetShares: readI128(bytes, base + MARGINFI_BALANCE.assetShares),
      liabilityShares: readI128(bytes, base + MARGINFI_BALANCE.liabilityShares),
    });
  }
  return {
    group: keyAt(bytes, MARGINFI_ACCOUNT_OFFSETS.group),
    authority: keyAt(bytes, MARGINFI_ACCOUNT_OFFSETS.authority),
    balances,
  };
}

/** The owner's asset shares (I80F48 raw) in `bank`: 0 without an active balance there. */
export function marginfiAssetShares(account: MarginfiAccountState, bank: PublicKey): bigint {
  return account.balances.find((balance) => balance.bank.equals(bank))?.assetShares ?? 0n;
}

/**
 * What `shares` (I80F48 raw) are worth in the bank's native units (USDC micros): the program's
 * `shares × asset_share_value` (I80F48 multiplication, truncating) taken to an integer by floor —
 * the owner's disfavour, as the program rounds what it pays out. Negative values are refused.
 *
 * @example
 * marginfiAssetValue(5n * I80F48_ONE, I80F48_ONE); // 5n
 */
export function marginfiAssetValue(shares: bigint, assetShareValue: bigint): bigint {
  if (shares < 0n || assetShareValue < 0n)
    throw new RangeError('negative marginfi shares or value');
  return (shares * assetShareValue) >> (2n * I80F48_FRACTION_BITS);
}

/**
 * The asset shares (I80F48 raw) `micros` native units buy at `assetShareValue`: the program's
 * `I80F48::from_num(amount) / asset_share_value` (truncating). A deposit credits these; a
 * withdrawal of `micros` removes them.
 *
 * @example
 * marginfiSharesFor(5n, I80F48_ONE); // 5n × 2^48
 */
export function marginfiSharesFor(micros: bigint, assetShareValue: bigint): bigint {
  if (micros < 0n || assetShareValue <= 0n) throw new RangeError('bad marginfi amount or value');
  return (micros << (2n * I80F48_FRACTION_BITS)) / assetShareValue;
}
