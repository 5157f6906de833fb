import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import {
  PublicKey,
  SYSVAR_INSTRUCTIONS_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from '@solana/web3.js';
import type { AccountMeta } from '@solana/web3.js';
import { encodeRouterInstructionData } from './routerInstructionData';

const writable = (pubkey: PublicKey, isSigner = false): AccountMeta => ({
  pubkey,
  isSigner,
  isWritable: true,
});
const readonly = (pubkey: PublicKey): AccountMeta => ({
  pubkey,
  isSigner: false,
  isWritable: false,
});

/** Accounts of `deposit_to_venue` and `withdraw_from_venue`, in instruction order. */
export interface VenueInstructionAccounts {
  readonly programId: PublicKey;
  readonly owner: PublicKey;
  readonly yieldRouter: PublicKey;
  readonly adapterRegistry: PublicKey;
  readonly adapter: PublicKey;
  readonly ownerUsdc: PublicKey;
  readonly routerVault: PublicKey;
  readonly ownerReceipt: PublicKey;
  readonly usdcMint: PublicKey;
  readonly receiptMint: PublicKey;
  /** The venue program the adapter is registered with (the router invokes it). */
  readonly venueProgram: PublicKey;
  /** The venue's USDC reserve (where deposits go and withdrawals come from). */
  readonly reserve: PublicKey;
}

/** Accounts of `deposit` and `withdraw` (between the owner and the router vault). */
export interface VaultInstructionAccounts {
  readonly programId: PublicKey;
  readonly owner: PublicKey;
  readonly yieldRouter: PublicKey;
  readonly routerVault: PublicKey;
  readonly ownerUsdc: PublicKey;
  readonly usdcMint: PublicKey;
}

/**
 * The owner's position PDA `["position", owner]` of the router program: what the router vault
 * holds for the owner (credited by the program's `deposit`, debited by `withdraw`).
 */
export function routerPosition(programId: PublicKey, owner: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [Buffer.from('position'), owner.toBuffer()],
    programId,
  )[0];
}

/** The leg's amount and plan, carried in the instruction data. */
export interface RouterLegArguments {
  readonly amountMicros: bigint;
  readonly planId: string;
}

function venueInstruction(
  name: 'deposit_to_venue' | 'withdraw_from_venue',
  accounts: VenueInstructionAccounts,
  args: RouterLegArguments,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: accounts.programId,
    keys: [
      writable(accounts.owner, true),
      writable(accounts.yieldRouter),
      readonly(accounts.adapterRegistry),
      writable(accounts.adapter),
      writable(accounts.ownerUsdc),
      writable(accounts.routerVault),
      writable(accounts.ownerReceipt),
      readonly(accounts.usdcMint),
      writable(accounts.receiptMint),
      readonly(TOKEN_PROGRAM_ID),
      readonly(accounts.venueProgram),
      writable(accounts.reserve),
      readonly(SYSVAR_INSTRUCTIONS_PUBKEY),
    ],
    data: encodeRouterInstructionData({ name, ...args }),
  });
}

/**
 * Router program `deposit_to_venue(amount: u64, plan_id: [u8; 16])`: the router checks the leg
 * (owner signed, plan id, its vault, `adapter` listed in the registry with `venueProgram`) and
 * invokes the venue: USDC from the owner into the venue's reserve, receipt tokens to the owner at
 * the venue's share price. Layout: README.md ("The Solana router program").
 *
 * @example
 * depositToVenueInstruction(accounts, { amountMicros: 5_000_000n, planId });
 */
export function depositToVenueInstruction(
  accounts: VenueInstructionAccounts,
  args: RouterLegArguments,
): TransactionInstruction {
  return venueInstruction('deposit_to_venue', accounts, args);
}

/**
 * Router program `withdraw_from_venue(amount, plan_id)`: the venue burns the receipt tokens worth
 * `amount` USDC (rounded up) and pays the USDC to the owner.
 */
export function withdrawFromVenueInstruction(
  accounts: VenueInstructionAccounts,
  args: RouterLegArguments,
): TransactionInstruction {
  return venueInstruction('withdraw_from_venue', accounts, args);
}

function vaultInstruction(
  name: 'deposit' | 'withdraw',
  accounts: VaultInstructionAccounts,
  args: RouterLegArguments,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: accounts.programId,
    keys: [
      writable(accounts.owner, true),
      writable(accounts.yieldRouter),
      writable(accounts.routerVault),
      writable(accounts.ownerUsdc),
      readonly(accounts.usdcMint),
      readonly(TOKEN_PROGRAM_ID),
      writable(routerPosition(accounts.programId, accounts.owner)),
      // Only a deposit may create the owner's position, so only it takes the System program.
      ...(name === 'deposit' ? [readonly(SystemProgram.programId)] : []),
      readonly(SYSVAR_INSTRUCTIONS_PUBKEY),
    ],
    data: encodeRouterInstructionData({ name, ...args }),
  });
}

/**
 * Router program `deposit(amount, plan_id)`: USDC from the owner into the router vault, credited
 * to the owner's position PDA (created, paid by the owner, on first use). Layout: README.md.
 *
 * @example
 * depositInstruction(accounts, { amountMicros: 5_000_000n, planId });
 */
export function depositInstruction(
  accounts: VaultInstructionAccounts,
  args: RouterLegArguments,
): TransactionInstruction {
  return vaultInstruction('deposit', accounts, args);
}

/**
 * Router program `withdraw(amount, plan_id)`: USDC from the router vault back to the owner, at
 * most what the owner's position holds.
 */
export function withdrawInstruction(
  accounts: VaultInstructionAccounts,
  args: RouterLegArguments,
): TransactionInstruction {
  return vaultInstruction('withdraw', accounts, args);
}
