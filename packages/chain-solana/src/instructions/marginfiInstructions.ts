import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import {
  PublicKey,
  SYSVAR_INSTRUCTIONS_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from '@solana/web3.js';
import type { AccountMeta } from '@solana/web3.js';
import { readonly, writable } from './accountMeta';
import { u64Amount } from './u64Amount';

/**
 * Anchor discriminators of the marginfi v2 instructions we call (IDL 0.1.8 of
 * `@mrgnlabs/marginfi-client-v2` 6.4.2, `dist/idl/marginfi_0.1.8.json`; checked in the test).
 */
export const MARGINFI_DISCRIMINATORS = {
  marginfiAccountInitializePda: [87, 177, 91, 80, 218, 119, 245, 31],
  lendingAccountDeposit: [171, 94, 235, 103, 82, 64, 212, 140],
  lendingAccountWithdraw: [36, 72, 74, 19, 210, 210, 192, 192],
} as const;

/** The seed of the bank's liquidity vault authority PDA (`["liquidity_vault_auth", bank]`). */
const LIQUIDITY_VAULT_AUTH_SEED = Buffer.from('liquidity_vault_auth');
/** The seed of a MarginfiAccount PDA (`["marginfi_account", group, authority, index, 3rd]`). */
const MARGINFI_ACCOUNT_SEED = Buffer.from('marginfi_account');

/** One marginfi bank (e.g. the main group's USDC bank), as configured. */
export interface MarginfiBankAccounts {
  /** The marginfi v2 program (`MFv2…`). */
  readonly program: PublicKey;
  /** The group the bank belongs to (and the owner's MarginfiAccount). */
  readonly group: PublicKey;
  /** The bank account (its state: share values, vaults, config). */
  readonly bank: PublicKey;
  /** The bank's liquidity vault token account (where USDC sits). */
  readonly liquidityVault: PublicKey;
}

/** The owner's side of a deposit or withdrawal. */
export interface MarginfiOwnerAccounts {
  /** The owner: the MarginfiAccount's authority (signer). */
  readonly owner: PublicKey;
  /** The owner's MarginfiAccount in the bank's group. */
  readonly marginfiAccount: PublicKey;
  /** The owner's USDC token account (source of a deposit, destination of a withdrawal). */
  readonly ownerLiquidity: PublicKey;
}

/**
 * The owner's MarginfiAccount PDA in `group` (`marginfi_account_initialize_pda`'s seeds, the IDL's:
 * "marginfi_account", group, authority, account_index u16 LE, third_party_id u16 LE (0 = none)).
 *
 * @example
 * marginfiAccountAddress(program, group, owner); // index 0, no third party
 */
export function marginfiAccountAddress(
  program: PublicKey,
  group: PublicKey,
  authority: PublicKey,
  accountIndex = 0,
  thirdPartyId = 0,
): PublicKey {
  const index = Buffer.alloc(2);
  index.writeUInt16LE(accountIndex);
  const thirdParty = Buffer.alloc(2);
  thirdParty.writeUInt16LE(thirdPartyId);
  return PublicKey.findProgramAddressSync(
    [MARGINFI_ACCOUNT_SEED, group.toBuffer(), authority.toBuffer(), index, thirdParty],
    program,
  )[0];
}

/**
 * The bank's liquidity vault authority (the program's PDA `["liquidity_vault_auth", bank]`).
 *
 * @example
 * marginfiLiquidityVaultAuthority(program, bank);
 */
export function marginfiLiquidityVaultAuthority(program: PublicKey, bank: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync([LIQUIDITY_VAULT_AUTH_SEED, bank.toBuffer()], program)[0];
}

const tagged = (discriminator: readonly number[], ...parts: Buffer[]): Buffer =>
  Buffer.concat([Buffer.from(discriminator), ...parts]);

const u64 = (amount: bigint, field: string): Buffer => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(u64Amount(amount, field));
  return out;
};

/** Borsh `Option<bool>`: None is one 0 byte, Some(b) is 1 then b. */
const optionBool = (value: boolean | undefined): Buffer =>
  value === undefined ? Buffer.from([0]) : Buffer.from([1, value ? 1 : 0]);

/**
 * `marginfi_account_initialize_pda(account_index: u16, third_party_id: Option<u16>)`: the
 * owner's MarginfiAccount at its PDA, the owner paying its rent. Accounts: marginfi_group,
 * marginfi_account (w), authority (signer), fee_payer (w, signer), instructions sysvar, system
 * program. We always open index 0 with no third-party id.
 */
export function marginfiAccountInitializePdaInstruction(
  bank: Pick<MarginfiBankAccounts, 'program' | 'group'>,
  owner: PublicKey,
): TransactionInstruction {
  const index = Buffer.alloc(2);
  index.writeUInt16LE(0);
  return new TransactionInstruction({
    programId: bank.program,
    keys: [
      readonly(bank.group),
      writable(marginfiAccountAddress(bank.program, bank.group, owner)),
      { pubkey: owner, isSigner: true, isWritable: false },
      writable(owner, true),
      readonly(SYSVAR_INSTRUCTIONS_PUBKEY),
      readonly(SystemProgram.programId),
    ],
    data: tagged(MARGINFI_DISCRIMINATORS.marginfiAccountInitializePda, index, Buffer.from([0])),
  });
}

/** The accounts deposit and withdraw open with: group, marginfi_account (w), authority
 * (signer), bank (w), the owner's token account (w). */
const lendingAccounts = (bank: MarginfiBankAccounts, owner: MarginfiOwnerAccounts) => [
  readonly(bank.group),
  writable(owner.marginfiAccount),
  { pubkey: owner.owner, isSigner: true, isWritable: false },
  writable(bank.bank),
  writable(owner.ownerLiquidity),
];

/**
 * `lending_account_deposit(amount: u64, deposit_up_to_limit: Option<bool>)` (None): accounts
 * group, marginfi_account (w), authority (signer), bank (w), signer_token_account (w),
 * liquidity_vault (w), token_program.
 */
export function marginfiDepositInstruction(
  bank: MarginfiBankAccounts,
  owner: MarginfiOwnerAccounts,
  amount: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: bank.program,
    keys: [
      ...lendingAccounts(bank, owner),
      writable(bank.liquidityVault),
      readonly(TOKEN_PROGRAM_ID),
    ],
    data: tagged(
      MARGINFI_DISCRIMINATORS.lendingAccountDeposit,
      u64(amount, 'amount'),
      optionBool(undefined),
    ),
  });
}

/** A withdrawal: `amount` USDC micros, or every share of the balance (`all`, which closes it). */
export type MarginfiWithdrawal =
  { readonly all: false; readonly amount: bigint } | { readonly all: true };

/**
 * `lending_account_withdraw(amount: u64, withdraw_all: Option<bool>)`: accounts group,
 * marginfi_account (w), authority (signer), bank (w), destination_token_account (w),
 * bank_liquidity_vault_authority, liquidity_vault (w), token_program, then the health check's
 * observation accounts (`remaining`: bank and oracle of every balance still active after the
 * withdrawal; none when a full exit closes the owner's only balance). A full exit passes
 * `withdraw_all = Some(true)` and amount 0 (the program ignores it).
 */
export function marginfiWithdrawInstruction(
  bank: MarginfiBankAccounts,
  owner: MarginfiOwnerAccounts,
  withdrawal: MarginfiWithdrawal,
  remaining: readonly AccountMeta[] = [],
): TransactionInstruction {
  const amount = withdrawal.all ? Buffer.alloc(8) : u64(withdrawal.amount, 'amount');
  return new TransactionInstruction({
    programId: bank.program,
    keys: [
      ...lendingAccounts(bank, owner),
      readonly(marginfiLiquidityVaultAuthority(bank.program, bank.bank)),
      writable(bank.liquidityVault),
      readonly(TOKEN_PROGRAM_ID),
      ...remaining,
    ],
    data: tagged(
      MARGINFI_DISCRIMINATORS.lendingAccountWithdraw,
      amount,
      optionBool(withdrawal.all ? true : undefined),
    ),
  });
}
