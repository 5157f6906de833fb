import { Keypair, PublicKey } from '@solana/web3.js';
import { instructions as sdkInstructions } from '@mrgnlabs/marginfi-client-v2';
import BN from 'bn.js';
import { MARGINFI_IDL as IDL, anchor, sdkWeb3 as web3 } from '../testing/marginfiSdk';
import {
  MARGINFI_DISCRIMINATORS,
  marginfiAccountAddress,
  marginfiAccountInitializePdaInstruction,
  marginfiDepositInstruction,
  marginfiLiquidityVaultAuthority,
  marginfiWithdrawInstruction,
} from './marginfiInstructions';
import type { MarginfiBankAccounts, MarginfiOwnerAccounts } from './marginfiInstructions';
import { expectSameInstruction } from '../testing/instructionShape';

// The package's own builders run on its own Anchor over its published IDL 0.1.8: the
// discriminators, argument encoding, account order, flags and PDAs below are the package's.
type MarginfiProgram = Parameters<typeof sdkInstructions.makeDepositIx>[0];
const provider = { connection: new web3.Connection('http://127.0.0.1:9') };
const program = new anchor.Program(IDL, provider) as MarginfiProgram;
const PROGRAM_ID = new PublicKey(IDL.address);

const key = (): PublicKey => Keypair.generate().publicKey;
const sdk = (pubkey: PublicKey) => new web3.PublicKey(pubkey.toBase58());

function fixture(): { bank: MarginfiBankAccounts; owner: MarginfiOwnerAccounts } {
  const ownerKey = key();
  const group = key();
  return {
    bank: { program: PROGRAM_ID, group, bank: key(), liquidityVault: key() },
    owner: {
      owner: ownerKey,
      marginfiAccount: marginfiAccountAddress(PROGRAM_ID, group, ownerKey),
      ownerLiquidity: key(),
    },
  };
}

/** The accounts the package's deposit and withdraw builders share (all given: no RPC lookup). */
const sdkLendingAccounts = (bank: MarginfiBankAccounts, owner: MarginfiOwnerAccounts) => ({
  marginfiAccount: sdk(owner.marginfiAccount),
  bank: sdk(bank.bank),
  tokenProgram: sdk(new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')),
  group: sdk(bank.group),
  authority: sdk(owner.owner),
  liquidityVault: sdk(bank.liquidityVault),
});

const idlInstruction = (name: string) => {
  const found = IDL.instructions.find((instruction) => instruction.name === name);
  if (!found) throw new Error(`IDL has no ${name}`);
  return found;
};

describe('marginfi v2 instructions against @mrgnlabs/marginfi-client-v2 (IDL 0.1.8)', () => {
  it('the IDL is the mainnet program 0.1.8 and names our discriminators', () => {
    expect(IDL.address).toBe('MFv2hWf31Z9kbCa1snEPYctwafyhdvnV7FZnsebVacA');
    expect(IDL.metadata.version).toBe('0.1.8');
    expect(idlInstruction('marginfi_account_initialize_pda').discriminator).toEqual(
      MARGINFI_DISCRIMINATORS.marginfiAccountInitializePda,
    );
    expect(idlInstruction('lending_account_deposit').discriminator).toEqual(
      MARGINFI_DISCRIMINATORS.lendingAccountDeposit,
    );
    expect(idlInstruction('lending_account_withdraw').discriminator).toEqual(
      MARGINFI_DISCRIMINATORS.lendingAccountWithdraw,
    );
  });

  it('marginfi_account_initialize_pda matches the package: PDA, accounts, data', async () => {
    const { bank, owner } = fixture();
    const theirs = await sdkInstructions.makeInitMarginfiAccountPdaIx(
      program,
      {
        marginfiGroup: sdk(bank.group),
        marginfiAccount: sdk(owner.marginfiAccount),
        authority: sdk(owner.owner),
        feePayer: sdk(owner.owner),
      },
      { accountIndex: 0 },
    );
    expectSameInstruction(marginfiAccountInitializePdaInstruction(bank, owner.owner), theirs);
  });

  it("our MarginfiAccount PDA is the IDL's seeds: its constant, group, authority, index, 0", () => {
    const { bank, owner } = fixture();
    const account = idlInstruction('marginfi_account_initialize_pda').accounts[1];
    const seeds = account && 'pda' in account ? account.pda.seeds : [];
    expect(seeds.map((seed) => ('path' in seed ? seed.path : seed.kind))).toEqual([
      'const',
      'marginfi_group',
      'authority',
      'account_index',
      'third_party_id.unwrap_or(0)',
    ]);
    const constant =
      seeds[0] && 'value' in seeds[0] ? Buffer.from(seeds[0].value) : Buffer.alloc(0);
    const u16 = Buffer.alloc(2); // account_index 0 and third_party_id None → 0, both u16 LE
    const [expected] = PublicKey.findProgramAddressSync(
      [constant, bank.group.toBuffer(), owner.owner.toBuffer(), u16, u16],
      PROGRAM_ID,
    );
    expect(owner.marginfiAccount.toBase58()).toBe(expected.toBase58());
  });

  it.each([1n, 5_000_000n, (1n << 64n) - 1n])(
    'lending_account_deposit(%s, None) matches the package byte for byte',
    async (amount) => {
      const { bank, owner } = fixture();
      const theirs = await sdkInstructions.makeDepositIx(
        program,
        { ...sdkLendingAccounts(bank, owner), signerTokenAccount: sdk(owner.ownerLiquidity) },
        { amount: new BN(amount.toString()) },
      );
      expectSameInstruction(marginfiDepositInstruction(bank, owner, amount), theirs);
    },
  );

  it.each([
    ['a partial withdrawal, with its observation accounts', { all: false, amount: 2_500_000n }, 2],
    ['withdraw_all, no observation accounts', { all: true }, 0],
  ] as const)('lending_account_withdraw: %s, matches the package', async (_, withdrawal, n) => {
    const { bank, owner } = fixture();
    const observation = [key(), key()].slice(0, n);
    const theirs = await sdkInstructions.makeWithdrawIx(
      program,
      {
        ...sdkLendingAccounts(bank, owner),
        destinationTokenAccount: sdk(owner.ownerLiquidity),
      } as Parameters<typeof sdkInstructions.makeWithdrawIx>[1],
      withdrawal.all
        ? { amount: new BN(0), withdrawAll: true }
        : { amount: new BN(withdrawal.amount.toString()) },
      observation.map((pubkey) => ({ pubkey: sdk(pubkey), isSigner: false, isWritable: false })),
    );
    const ours = marginfiWithdrawInstruction(
      bank,
      owner,
      withdrawal,
      observation.map((pubkey) => ({ pubkey, isSigner: false, isWritable: false })),
    );
    expectSameInstruction(ours, theirs);
    // The vault authority is the IDL's PDA, as Anchor derived it above.
    expect(ours.keys[5]?.pubkey.toBase58()).toBe(
      marginfiLiquidityVaultAuthority(PROGRAM_ID, bank.bank).toBase58(),
    );
  });

  it.each([0n, -1n, 1n << 64n])('refuses an amount that is not a positive u64 (%s)', (amount) => {
    const { bank, owner } = fixture();
    expect(() => marginfiDepositInstruction(bank, owner, amount)).toThrow(RangeError);
    expect(() => marginfiWithdrawInstruction(bank, owner, { all: false, amount })).toThrow(
      RangeError,
    );
  });
});
