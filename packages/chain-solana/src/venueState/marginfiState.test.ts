import { Keypair } from '@solana/web3.js';
import { MARGINFI_IDL as IDL, anchor } from '../testing/marginfiSdk';
import {
  I80F48_ONE,
  MARGINFI_ACCOUNT_DISCRIMINATOR,
  MARGINFI_ACCOUNT_LENGTH,
  MARGINFI_ACCOUNT_OFFSETS,
  MARGINFI_BALANCE,
  MARGINFI_BANK_DISCRIMINATOR,
  MARGINFI_BANK_LENGTH,
  MARGINFI_BANK_OFFSETS,
  decodeMarginfiAccount,
  decodeMarginfiBank,
  marginfiAssetShares,
  marginfiAssetValue,
  marginfiSharesFor,
} from './marginfiState';

// The package's own Anchor decodes the same bytes by the published IDL: every field we read
// must come out of it where our offsets put it.
const coder = new anchor.BorshAccountsCoder(IDL);

const key = () => Keypair.generate().publicKey;
const i128 = (value: bigint): Buffer => {
  const out = Buffer.alloc(16);
  const raw = BigInt.asUintN(128, value);
  out.writeBigUInt64LE(raw & ((1n << 64n) - 1n), 0);
  out.writeBigUInt64LE(raw >> 64n, 8);
  return out;
};
const wrapped = (decoded: { value: number[] }): bigint =>
  BigInt.asIntN(128, BigInt(`0x${Buffer.from(decoded.value).reverse().toString('hex')}`));

interface DecodedBank {
  mint: { toBase58(): string };
  mint_decimals: number;
  group: { toBase58(): string };
  asset_share_value: { value: number[] };
  liability_share_value: { value: number[] };
  liquidity_vault: { toBase58(): string };
  total_asset_shares: { value: number[] };
}
interface DecodedAccount {
  group: { toBase58(): string };
  authority: { toBase58(): string };
  lending_account: {
    balances: {
      active: number;
      bank_pk: { toBase58(): string };
      asset_shares: { value: number[] };
      liability_shares: { value: number[] };
    }[];
  };
}

describe('marginfi account state against the package IDL 0.1.8', () => {
  it('Bank: discriminator, length and every field we read sit where the IDL puts them', () => {
    expect(coder.size('Bank')).toBe(MARGINFI_BANK_LENGTH);
    expect(IDL.accounts.find((a) => a.name === 'Bank')?.discriminator).toEqual([
      ...MARGINFI_BANK_DISCRIMINATOR,
    ]);
    const data = Buffer.alloc(MARGINFI_BANK_LENGTH);
    Buffer.from(MARGINFI_BANK_DISCRIMINATOR).copy(data, 0);
    const [mint, group, vault] = [key(), key(), key()];
    const at = MARGINFI_BANK_OFFSETS;
    mint.toBuffer().copy(data, at.mint);
    data.writeUInt8(6, at.mintDecimals);
    group.toBuffer().copy(data, at.group);
    i128(1_071_234_567_890_123n).copy(data, at.assetShareValue);
    i128(-3n).copy(data, at.liabilityShareValue);
    vault.toBuffer().copy(data, at.liquidityVault);
    i128(987_654_321n << 48n).copy(data, at.totalAssetShares);

    const theirs = coder.decode<DecodedBank>('Bank', data);
    const ours = decodeMarginfiBank(data);
    expect(theirs.mint.toBase58()).toBe(ours.mint.toBase58());
    expect(theirs.mint_decimals).toBe(ours.mintDecimals);
    expect(theirs.group.toBase58()).toBe(ours.group.toBase58());
    expect(wrapped(theirs.asset_share_value)).toBe(ours.assetShareValue);
    expect(wrapped(theirs.liability_share_value)).toBe(ours.liabilityShareValue);
    expect(theirs.liquidity_vault.toBase58()).toBe(ours.liquidityVault.toBase58());
    expect(wrapped(theirs.total_asset_shares)).toBe(ours.totalAssetShares);
    expect(ours).toMatchObject({ mintDecimals: 6, assetShareValue: 1_071_234_567_890_123n });
    expect(ours.mint.equals(mint) && ours.group.equals(group)).toBe(true);
  });

  it('MarginfiAccount: group, authority and the active balances, by the IDL', () => {
    expect(coder.size('MarginfiAccount')).toBe(MARGINFI_ACCOUNT_LENGTH);
    const data = Buffer.alloc(MARGINFI_ACCOUNT_LENGTH);
    Buffer.from(MARGINFI_ACCOUNT_DISCRIMINATOR).copy(data, 0);
    const [group, authority, usdcBank, otherBank] = [key(), key(), key(), key()];
    group.toBuffer().copy(data, MARGINFI_ACCOUNT_OFFSETS.group);
    authority.toBuffer().copy(data, MARGINFI_ACCOUNT_OFFSETS.authority);
    const balance = (slot: number, bank: typeof usdcBank, assets: bigint, liabilities: bigint) => {
      const base = MARGINFI_ACCOUNT_OFFSETS.balances + slot * MARGINFI_BALANCE.length;
      data.writeUInt8(1, base + MARGINFI_BALANCE.active);
      bank.toBuffer().copy(data, base + MARGINFI_BALANCE.bankPk);
      i128(assets).copy(data, base + MARGINFI_BALANCE.assetShares);
      i128(liabilities).copy(data, base + MARGINFI_BALANCE.liabilityShares);
    };
    balance(0, otherBank, 0n, 7n << 48n);
    balance(15, usdcBank, 4_999_999n << 40n, 0n); // the last slot: offsets hold to the end

    const theirs = coder.decode<DecodedAccount>('MarginfiAccount', data);
    const ours = decodeMarginfiAccount(data);
    expect(theirs.group.toBase58()).toBe(ours.group.toBase58());
    expect(theirs.authority.toBase58()).toBe(authority.toBase58());
    const active = theirs.lending_account.balances.filter((b) => b.active !== 0);
    expect(
      active.map((b) => [
        b.bank_pk.toBase58(),
        wrapped(b.asset_shares),
        wrapped(b.liability_shares),
      ]),
    ).toEqual(ours.balances.map((b) => [b.bank.toBase58(), b.assetShares, b.liabilityShares]));
    expect(marginfiAssetShares(ours, usdcBank)).toBe(4_999_999n << 40n);
    expect(marginfiAssetShares(ours, key())).toBe(0n);
  });

  it('refuses another account: wrong length or discriminator', () => {
    const bank = Buffer.alloc(MARGINFI_BANK_LENGTH);
    expect(() => decodeMarginfiBank(bank)).toThrow('discriminator');
    expect(() => decodeMarginfiBank(bank.subarray(1))).toThrow('length');
    const account = Buffer.alloc(MARGINFI_ACCOUNT_LENGTH);
    Buffer.from(MARGINFI_BANK_DISCRIMINATOR).copy(account, 0);
    expect(() => decodeMarginfiAccount(account)).toThrow('discriminator');
  });

  it.each([
    // [micros, share value (I80F48 raw)]
    [5_000_000n, I80F48_ONE],
    [5_000_000n, (I80F48_ONE * 11n) / 10n],
    [1n, (I80F48_ONE * 3n) / 2n],
    [123_456_789_012n, 1_071_234_567_890_123n],
  ])(
    '%s micros at share value %s: shares bought are worth at most what was paid',
    (micros, value) => {
      const shares = marginfiSharesFor(micros, value);
      const worth = marginfiAssetValue(shares, value);
      expect(worth).toBeLessThanOrEqual(micros);
      expect(micros - worth).toBeLessThanOrEqual(1n);
    },
  );

  it('values shares by floor(shares × value), the owner never credited a part micro', () => {
    expect(marginfiAssetValue(10n * I80F48_ONE, (I80F48_ONE * 105n) / 100n)).toBe(10n);
    expect(marginfiAssetValue(100n * I80F48_ONE, (I80F48_ONE * 105n) / 100n)).toBe(104n);
    expect(marginfiAssetValue(0n, I80F48_ONE)).toBe(0n);
    expect(() => marginfiAssetValue(-1n, I80F48_ONE)).toThrow(RangeError);
    expect(() => marginfiSharesFor(1n, 0n)).toThrow(RangeError);
  });
});
