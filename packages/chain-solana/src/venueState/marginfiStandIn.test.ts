import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { deployMarginfi, startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed, SolanaMarginfiBank } from '@yieldrouter/chain-beds';
import { readonly } from '../instructions/accountMeta';
import {
  marginfiAccountAddress,
  marginfiAccountInitializePdaInstruction,
  marginfiDepositInstruction,
  marginfiWithdrawInstruction,
} from '../instructions/marginfiInstructions';
import type {
  MarginfiBankAccounts,
  MarginfiWithdrawal,
} from '../instructions/marginfiInstructions';
import { MARGINFI_IDL, anchor } from '../testing/marginfiSdk';
import { sendOnBed } from '../testing/sendOnBed';
import { associatedTokenAccount } from '../tokenAccounts';
import {
  I80F48_ONE,
  decodeMarginfiAccount,
  decodeMarginfiBank,
  marginfiAssetShares,
  marginfiAssetValue,
  marginfiSharesFor,
} from './marginfiState';

// The bed's marginfi stand-in, driven with our instruction builders (proven against the
// package's) and read with both our decoder and the package's Anchor coder.
let bed: SolanaBed;
let marginfi: SolanaMarginfiBank;
const START_VALUE = (I80F48_ONE * 21n) / 20n; // 1.05: other lenders have earned already
beforeAll(async () => {
  bed = await startSolanaBed();
  marginfi = deployMarginfi(bed, { assetShareValue: START_VALUE });
});
afterAll(() => bed.stop());

const coder = () => new anchor.BorshAccountsCoder(MARGINFI_IDL);
function data(address: string): Buffer {
  const account = bed.svm.getAccount(address as Parameters<SolanaBed['svm']['getAccount']>[0]);
  if (!account.exists) throw new Error(`no account at ${address}`);
  return Buffer.from(account.data);
}
const bankAccounts = (): MarginfiBankAccounts => ({
  program: new PublicKey(marginfi.program),
  group: new PublicKey(marginfi.group),
  bank: new PublicKey(marginfi.bank),
  liquidityVault: new PublicKey(marginfi.liquidityVault),
});
const accountOf = (owner: Keypair) =>
  marginfiAccountAddress(bankAccounts().program, bankAccounts().group, owner.publicKey);
const ownerAccounts = (owner: Keypair) => ({
  owner: owner.publicKey,
  marginfiAccount: accountOf(owner),
  ownerLiquidity: associatedTokenAccount(owner.publicKey, new PublicKey(bed.usdcMint)),
});
const shares = (owner: Keypair) =>
  marginfiAssetShares(
    decodeMarginfiAccount(data(accountOf(owner).toBase58())),
    bankAccounts().bank,
  );
const value = () => decodeMarginfiBank(data(marginfi.bank)).assetShareValue;

function funded(micros: bigint): Keypair {
  const owner = bed.createFundedKeypair();
  bed.mintUsdc(owner.publicKey, micros);
  return owner;
}

function open(owner: Keypair, deposit: bigint) {
  return sendOnBed(
    bed,
    [
      marginfiAccountInitializePdaInstruction(bankAccounts(), owner.publicKey),
      marginfiDepositInstruction(bankAccounts(), ownerAccounts(owner), deposit),
    ],
    owner,
  );
}

function withdraw(owner: Keypair, withdrawal: MarginfiWithdrawal, observe: boolean) {
  const observation = observe
    ? [readonly(bankAccounts().bank), readonly(new PublicKey(marginfi.oracle))]
    : [];
  return sendOnBed(
    bed,
    [marginfiWithdrawInstruction(bankAccounts(), ownerAccounts(owner), withdrawal, observation)],
    owner,
  );
}

describe('the marginfi stand-in (IDL 0.1.8 interface)', () => {
  it('opens the account at its PDA and credits amount / share value, as the package decodes it', () => {
    const owner = funded(10_000_000n);
    const run = open(owner, 7_000_000n);
    expect(run.error).toBeUndefined();
    expect(shares(owner)).toBe(marginfiSharesFor(7_000_000n, START_VALUE));
    const decoded = coder().decode<{
      authority: { toBase58(): string };
      group: { toBase58(): string };
      account_index: number;
    }>('MarginfiAccount', data(accountOf(owner).toBase58()));
    expect(decoded.authority.toBase58()).toBe(owner.publicKey.toBase58());
    expect(decoded.group.toBase58()).toBe(marginfi.group);
    expect(decoded.account_index).toBe(0);
    expect(bed.usdcBalance(owner.publicKey)).toBe(3_000_000n);
    // A second initialisation of the same PDA is refused.
    expect(open(owner, 1_000_000n).ok).toBe(false);
  });

  it('a partial withdrawal needs the bank and oracle as observation accounts', () => {
    const owner = funded(4_000_000n);
    expect(open(owner, 4_000_000n).ok).toBe(true);
    const before = shares(owner);
    const refused = withdraw(owner, { all: false, amount: 1_000_000n }, false);
    expect(refused.ok).toBe(false);
    expect(withdraw(owner, { all: false, amount: 1_000_000n }, true).error).toBeUndefined();
    expect(shares(owner)).toBe(before - marginfiSharesFor(1_000_000n, value()));
    expect(bed.usdcBalance(owner.publicKey)).toBe(1_000_000n);
    // More than the shares are worth is refused.
    expect(withdraw(owner, { all: false, amount: 4_000_000n }, true).ok).toBe(false);
  });

  it('interest raises the share value pro rata; withdraw_all pays floor(shares × value) and closes', () => {
    const owner = funded(20_000_000n);
    expect(open(owner, 20_000_000n).ok).toBe(true);
    const held = shares(owner);
    const bank = decodeMarginfiBank(data(marginfi.bank));
    marginfi.accrue(3_000_000n);
    const grown = value();
    expect(grown).toBe(bank.assetShareValue + (3_000_000n << 96n) / bank.totalAssetShares);
    const worth = marginfiAssetValue(held, grown);
    expect(worth).toBeGreaterThan(20_000_000n);
    // withdraw_all with no observation accounts: the only balance closes.
    expect(withdraw(owner, { all: true }, false).error).toBeUndefined();
    expect(bed.usdcBalance(owner.publicKey)).toBe(worth);
    expect(decodeMarginfiAccount(data(accountOf(owner).toBase58())).balances).toEqual([]);
  });

  it('refuses a deposit into another owner’s account and a bank of another group', () => {
    const owner = funded(2_000_000n);
    const other = funded(2_000_000n);
    expect(open(other, 1_000_000n).ok).toBe(true);
    const foreign = { ...ownerAccounts(owner), marginfiAccount: accountOf(other) };
    const run = sendOnBed(
      bed,
      [marginfiDepositInstruction(bankAccounts(), foreign, 1_000_000n)],
      owner,
    );
    expect(run.ok).toBe(false);
    const otherGroup = { ...bankAccounts(), group: new PublicKey(marginfi.bank) };
    expect(
      sendOnBed(
        bed,
        [marginfiDepositInstruction(otherGroup, ownerAccounts(other), 1_000_000n)],
        other,
      ).ok,
    ).toBe(false);
  });
});
