import { createHash } from 'node:crypto';
import { TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from '@solana/spl-token';
import {
  PublicKey,
  SYSVAR_INSTRUCTIONS_PUBKEY,
  SystemProgram,
  TransactionInstruction,
} from '@solana/web3.js';
import type { AccountMeta } from '@solana/web3.js';

// Instruction builders for our two programs, written from the C sources' account lists: the
// program tests and the local beds (deploy, fixtures) use them. packages/chain-solana encodes the
// legs the API prepares on its own, so the tests cross-check that encoding rather than share it.

export const discriminator = (name: string): Buffer =>
  createHash('sha256').update(`global:${name}`).digest().subarray(0, 8);

const w = (pubkey: PublicKey, isSigner = false): AccountMeta => ({
  pubkey,
  isSigner,
  isWritable: true,
});
const r = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: false });

export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** The memo every leg carries, `svc:plan_<32 hex>`: the router refuses a leg without it. */
export function planMemo(planId: Uint8Array): TransactionInstruction {
  return new TransactionInstruction({
    programId: MEMO_PROGRAM_ID,
    keys: [],
    data: Buffer.from(`svc:plan_${Buffer.from(planId).toString('hex')}`, 'utf8'),
  });
}

/** `discriminator ++ u64 amount ++ 16 plan-id bytes`. */
export function legData(name: string, amount: bigint, planId: Uint8Array): Buffer {
  const data = Buffer.alloc(8 + 8 + planId.length);
  discriminator(name).copy(data, 0);
  data.writeBigUInt64LE(amount, 8);
  Buffer.from(planId).copy(data, 16);
  return data;
}

export const routerPda = (programId: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync([Buffer.from('yield_router')], programId)[0];
export const registryPda = (programId: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync([Buffer.from('adapter_registry')], programId)[0];
export const positionPda = (programId: PublicKey, owner: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync([Buffer.from('position'), owner.toBuffer()], programId)[0];
/** The owner's venue position `["venue_position", owner, adapter]`: principal and shares routed in. */
export const venuePositionPda = (
  programId: PublicKey,
  owner: PublicKey,
  adapter: PublicKey,
): PublicKey =>
  PublicKey.findProgramAddressSync(
    [Buffer.from('venue_position'), owner.toBuffer(), adapter.toBuffer()],
    programId,
  )[0];
export const ata = (owner: PublicKey, mint: PublicKey): PublicKey =>
  getAssociatedTokenAddressSync(mint, owner, true);

export const UPGRADEABLE_LOADER_ID = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
/** A program's ProgramData account (upgradeable loader): where its upgrade authority lives. */
export const programDataAddress = (programId: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync([programId.toBuffer()], UPGRADEABLE_LOADER_ID)[0];

/** `initialize`: the admin must be the program's upgrade authority. */
export function initializeRouter(programId: PublicKey, admin: PublicKey): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      w(admin, true),
      w(routerPda(programId)),
      w(registryPda(programId)),
      r(SystemProgram.programId),
      r(programId),
      r(programDataAddress(programId)),
    ],
    data: discriminator('initialize'),
  });
}

/**
 * The protocol layouts the router speaks (`include/layouts/venue_layout.h`, `YR_LAYOUT_ID_*`):
 * a registry entry records one, and the router builds that protocol's instruction from it.
 */
export const VENUE_LAYOUT = {
  testVenue: 0,
  klend: 1,
  jupiterLend: 2,
  save: 3,
  marginfi: 4,
} as const;
export type VenueLayoutId = (typeof VENUE_LAYOUT)[keyof typeof VENUE_LAYOUT];

/** `register_adapter(adapter, venue_program, layout)`: `adapter` is the protocol account (reserve, pool, bank) the entry is bound to. */
export function registerAdapter(
  programId: PublicKey,
  admin: PublicKey,
  adapter: PublicKey,
  venueProgram: PublicKey,
  layout: VenueLayoutId,
): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: admin, isSigner: true, isWritable: false },
      r(routerPda(programId)),
      w(registryPda(programId)),
    ],
    data: Buffer.concat([
      discriminator('register_adapter'),
      adapter.toBuffer(),
      venueProgram.toBuffer(),
      Buffer.from([layout]),
    ]),
  });
}

/**
 * `set_fee_config(skim_bps: u16, treasury: Pubkey)`: the yield skim (at most 1000 bps) and the
 * treasury wallet whose token account every venue withdrawal pays it to; admin only.
 */
export function setFeeConfig(
  programId: PublicKey,
  admin: PublicKey,
  skimBps: number,
  treasury: PublicKey,
): TransactionInstruction {
  const data = Buffer.alloc(8 + 2 + 32);
  discriminator('set_fee_config').copy(data, 0);
  data.writeUInt16LE(skimBps, 8);
  treasury.toBuffer().copy(data, 10);
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: admin, isSigner: true, isWritable: false },
      r(routerPda(programId)),
      w(registryPda(programId)),
    ],
    data,
  });
}

export interface RouterLeg {
  readonly programId: PublicKey;
  readonly owner: PublicKey;
  readonly usdcMint: PublicKey;
  readonly amount: bigint;
  readonly planId: Uint8Array;
  /** Defaults: the router PDA's USDC ATA, the owner's USDC ATA. */
  readonly vault?: PublicKey;
  readonly ownerUsdc?: PublicKey;
}

export function routerDeposit(leg: RouterLeg): TransactionInstruction {
  return routerVaultLeg('deposit', leg);
}

export function routerWithdraw(leg: RouterLeg): TransactionInstruction {
  return routerVaultLeg('withdraw', leg);
}

/** Deposit and withdraw take the same accounts, but the system program only for a deposit (it may create the position). */
function routerVaultLeg(
  instruction: 'deposit' | 'withdraw',
  leg: RouterLeg,
): TransactionInstruction {
  const router = routerPda(leg.programId);
  return new TransactionInstruction({
    programId: leg.programId,
    keys: [
      w(leg.owner, true),
      w(router),
      w(leg.vault ?? ata(router, leg.usdcMint)),
      w(leg.ownerUsdc ?? ata(leg.owner, leg.usdcMint)),
      r(leg.usdcMint),
      r(TOKEN_PROGRAM_ID),
      w(positionPda(leg.programId, leg.owner)),
      ...(instruction === 'deposit' ? [r(SystemProgram.programId)] : []),
      r(SYSVAR_INSTRUCTIONS_PUBKEY),
    ],
    data: legData(instruction, leg.amount, leg.planId),
  });
}

/** A venue registered with the router: the test venue's state account and its accounts. */
export interface VenueAccounts {
  readonly program: PublicKey;
  readonly venue: PublicKey;
  readonly receiptMint: PublicKey;
  readonly reserve: PublicKey;
}

export const venuePda = (venueProgram: PublicKey, receiptMint: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync([Buffer.from('venue'), receiptMint.toBuffer()], venueProgram)[0];

/** A router venue leg: the router's fixed accounts, then the protocol's own, in its order. */
export interface RouterVenueCall {
  readonly programId: PublicKey;
  readonly owner: PublicKey;
  readonly amount: bigint;
  readonly planId: Uint8Array;
  /** The registered protocol account (reserve, pool, bank). */
  readonly adapter: PublicKey;
  readonly venueProgram: PublicKey;
  /** The treasury's USDC token account (the registry's treasury wallet owns it). */
  readonly treasury: PublicKey;
  /** The protocol instruction's accounts, in the protocol's order and with its flags. */
  readonly venueAccounts: readonly AccountMeta[];
}

/**
 * `deposit_to_venue` / `withdraw_from_venue(amount, plan_id)`: [owner, router, registry, adapter,
 * venue program, Instructions sysvar, venue position, treasury USDC, Token program, System
 * program, ...the protocol's accounts].
 */
export function routerVenueCall(
  name: 'deposit_to_venue' | 'withdraw_from_venue',
  call: RouterVenueCall,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: call.programId,
    keys: [
      w(call.owner, true),
      w(routerPda(call.programId)),
      r(registryPda(call.programId)),
      r(call.adapter),
      r(call.venueProgram),
      r(SYSVAR_INSTRUCTIONS_PUBKEY),
      w(venuePositionPda(call.programId, call.owner, call.adapter)),
      w(call.treasury),
      r(TOKEN_PROGRAM_ID),
      r(SystemProgram.programId),
      ...call.venueAccounts,
    ],
    data: legData(name, call.amount, call.planId),
  });
}

/** The test venue's own deposit / withdraw accounts (its layout, `layouts/test_venue.h`). */
export function testVenueAccounts(
  venue: VenueAccounts,
  depositor: PublicKey,
  usdcMint: PublicKey,
  overrides: { readonly depositorUsdc?: PublicKey; readonly depositorReceipt?: PublicKey } = {},
): AccountMeta[] {
  return [
    w(depositor, true),
    w(venue.venue),
    w(overrides.depositorUsdc ?? ata(depositor, usdcMint)),
    w(venue.reserve),
    w(overrides.depositorReceipt ?? ata(depositor, venue.receiptMint)),
    w(venue.receiptMint),
    r(usdcMint),
    r(TOKEN_PROGRAM_ID),
  ];
}

/** A router leg into (or out of) the test venue. */
export function routerVenueLeg(
  name: 'deposit_to_venue' | 'withdraw_from_venue',
  leg: RouterLeg & {
    readonly venue: VenueAccounts;
    readonly adapter?: PublicKey;
    readonly treasury: PublicKey;
  },
): TransactionInstruction {
  return routerVenueCall(name, {
    treasury: leg.treasury,
    programId: leg.programId,
    owner: leg.owner,
    amount: leg.amount,
    planId: leg.planId,
    adapter: leg.adapter ?? leg.venue.venue,
    venueProgram: leg.venue.program,
    venueAccounts: testVenueAccounts(
      leg.venue,
      leg.owner,
      leg.usdcMint,
      leg.ownerUsdc ? { depositorUsdc: leg.ownerUsdc } : {},
    ),
  });
}

export function initializeVenue(
  venue: VenueAccounts,
  admin: PublicKey,
  usdcMint: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: venue.program,
    keys: [
      w(admin, true),
      w(venue.venue),
      r(usdcMint),
      r(venue.receiptMint),
      r(venue.reserve),
      r(SystemProgram.programId),
    ],
    data: discriminator('initialize_venue'),
  });
}

function amountData(name: string, amount: bigint): Buffer {
  const data = Buffer.alloc(16);
  discriminator(name).copy(data, 0);
  data.writeBigUInt64LE(amount, 8);
  return data;
}

/** The venue's own deposit / withdraw, called directly by a depositor. */
export function venueMove(
  name: 'deposit' | 'withdraw',
  venue: VenueAccounts,
  depositor: PublicKey,
  usdcMint: PublicKey,
  assets: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: venue.program,
    keys: testVenueAccounts(venue, depositor, usdcMint),
    data: amountData(name, assets),
  });
}

export function venueAccrue(
  venue: VenueAccounts,
  admin: PublicKey,
  usdcMint: PublicKey,
  assets: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: venue.program,
    keys: [
      w(admin, true),
      w(venue.venue),
      w(ata(admin, usdcMint)),
      w(venue.reserve),
      r(usdcMint),
      r(TOKEN_PROGRAM_ID),
    ],
    data: amountData('accrue', assets),
  });
}
