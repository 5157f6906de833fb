import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import {
  PublicKey,
  SYSVAR_INSTRUCTIONS_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from '@solana/web3.js';
import type { AccountMeta } from '@solana/web3.js';
import { encodeRouterInstructionData } from './routerInstructionData';
import { readonly, writable } from './accountMeta';

/**
 * Accounts of `deposit_to_venue` and `withdraw_from_venue`: the router's fixed accounts, then the
 * protocol's own instruction accounts in the protocol's order (docs/venues/solana.md).
 */
export interface VenueInstructionAccounts {
  readonly programId: PublicKey;
  readonly owner: PublicKey;
  readonly yieldRouter: PublicKey;
  readonly adapterRegistry: PublicKey;
  /** The protocol account the registry entry is bound to (reserve, lending pool, bank). */
  readonly adapter: PublicKey;
  /** The venue program the adapter is registered with (the router invokes it). */
  readonly venueProgram: PublicKey;
  /** The treasury's USDC token account (its owner is the registry's treasury wallet). */
  readonly treasuryUsdc: PublicKey;
  /** The protocol instruction's accounts, in its order and with its flags. */
  readonly venueAccounts: readonly AccountMeta[];
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

/**
 * The owner's venue position PDA `["venue_position", owner, adapter]`: the principal and receipt
 * tokens the owner routed into that venue, which the yield skim is measured against.
 */
export function routerVenuePosition(
  programId: PublicKey,
  owner: PublicKey,
  adapter: PublicKey,
): PublicKey {
  return PublicKey.findProgramAddressSync(
    [Buffer.from('venue_position'), owner.toBuffer(), adapter.toBuffer()],
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
      readonly(accounts.adapter),
      readonly(accounts.venueProgram),
      readonly(SYSVAR_INSTRUCTIONS_PUBKEY),
      writable(routerVenuePosition(accounts.programId, accounts.owner, accounts.adapter)),
      writable(accounts.treasuryUsdc),
      readonly(TOKEN_PROGRAM_ID),
      readonly(SystemProgram.programId),
      ...accounts.venueAccounts,
    ],
    data: encodeRouterInstructionData({ name, ...args }),
  });
}

/**
 * Router program `deposit_to_venue(amount: u64, plan_id: [u8; 16])`: the router checks the leg
 * (owner signed, plan memo, `adapter` listed in the registry with `venueProgram`, the protocol
 * accounts its layout names) and invokes the protocol's deposit with `amount` as its argument:
 * USDC from the owner, the receipt to the owner. Layout: docs/venues/solana.md.
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
 * Router program `withdraw_from_venue(amount, plan_id)`: the protocol's withdrawal with `amount`
 * in the layout's unit (USDC, or the protocol's receipt tokens), paid to the owner; the router
 * then pays the registry's skim on the yield above the owner's recorded principal from the
 * owner's USDC to the treasury (docs/venues/solana.md, "The yield skim").
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
 * to the owner's position PDA (created, paid by the owner, on first use). Layout: docs/chains.md.
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
