import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  VENUE_LAYOUT,
  ensureProgramsBuilt,
  loadProgram,
  tokenAccountData,
} from '@yieldrouter/solana-programs';
import { registerWith } from './deployJupiterLend';
import type { SolanaRouterDeployment } from './deployYieldRouter';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';
import { fundWithUsdc, writeStandInAccount } from './standInAccounts';

/** marginfi v2's mainnet program id (the address of `@mrgnlabs/marginfi-client-v2`'s IDL 0.1.8). */
export const MARGINFI_PROGRAM_ID = 'MFv2hWf31Z9kbCa1snEPYctwafyhdvnV7FZnsebVacA';

const I80F48_ONE = 1n << 48n;
const GROUP_LEN = 1064;
const BANK_LEN = 1864;
const GROUP_DISCRIMINATOR = [182, 23, 173, 240, 151, 206, 182, 67];
const BANK_DISCRIMINATOR = [142, 49, 166, 242, 50, 66, 97, 188];

/** One marginfi USDC bank on the bed (base58): the ids its venue takes. */
export interface SolanaMarginfiBank {
  readonly program: string;
  readonly group: string;
  readonly bank: string;
  readonly liquidityVault: string;
  readonly oracle: string;
  /** The venue's `SVC_VENUE_IDS` entry (chain-solana's marginfi protocol's id names). */
  readonly ids: Readonly<Record<string, string>>;
  /** Interest arrives: `micros` of USDC into the vault, every share worth that much more. */
  accrue(micros: bigint): void;
}

export interface DeployMarginfiParameters {
  /** USDC other lenders hold in the bank (default 1,000). */
  readonly otherLendersMicros?: bigint;
  /** The asset share value at the start, I80F48 raw (default 1.0). */
  readonly assetShareValue?: bigint;
  /** When given, the bank is registered with this router as an adapter (layout marginfi). */
  readonly router?: SolanaRouterDeployment;
}

const i128 = (data: Buffer, offset: number, value: bigint) => {
  data.writeBigUInt64LE(value & ((1n << 64n) - 1n), offset);
  data.writeBigUInt64LE(value >> 64n, offset + 8);
};

/**
 * The marginfi stand-in (`programs/marginfi`, built first when missing or stale) at marginfi's
 * mainnet program id, with one group and its USDC bank: `otherLendersMicros` in the liquidity
 * vault, backed by other lenders' asset shares at `assetShareValue`. Bank and group follow the
 * IDL's layouts (the fields the stand-in reads); the accounts take fresh addresses, the vault
 * authority is the program's PDA.
 *
 * @example
 * const marginfi = deployMarginfi(bed, { router: bed.router });
 * marginfi.accrue(10_000_000n); // 10 USDC of interest to every lender pro rata
 */
export function deployMarginfi(
  bed: SolanaBed,
  parameters: DeployMarginfiParameters = {},
): SolanaMarginfiBank {
  const program = new PublicKey(MARGINFI_PROGRAM_ID);
  loadProgram(bed.svm, program, ensureProgramsBuilt().marginfi, bed.mintAuthority.publicKey);
  const usdc = new PublicKey(bed.usdcMint);
  const lenders = parameters.otherLendersMicros ?? 1_000_000_000n;
  const value = parameters.assetShareValue ?? I80F48_ONE;
  const group = Keypair.generate().publicKey;
  const bank = Keypair.generate().publicKey;
  const vault = Keypair.generate().publicKey;
  const oracle = Keypair.generate().publicKey;
  const [vaultAuthority, vaultAuthorityBump] = PublicKey.findProgramAddressSync(
    [Buffer.from('liquidity_vault_auth'), bank.toBuffer()],
    program,
  );
  const write = (address: PublicKey, owner: PublicKey, data: Buffer) =>
    writeStandInAccount(bed, address, owner, data);

  const groupData = Buffer.alloc(GROUP_LEN);
  Buffer.from(GROUP_DISCRIMINATOR).copy(groupData, 0);
  bed.mintAuthority.publicKey.toBuffer().copy(groupData, 8); // admin
  write(group, program, groupData);

  write(vault, TOKEN_PROGRAM_ID, tokenAccountData(usdc, vaultAuthority, 0n));
  fundWithUsdc(bed, vault, lenders, 'marginfi vault funding');

  // Bank (IDL 0.1.8, bytemuck): mint, decimals, group, share values, the vault and its bumps,
  // total asset shares: the other lenders' (lenders / value), the rest left at zero.
  const bankData = Buffer.alloc(BANK_LEN);
  Buffer.from(BANK_DISCRIMINATOR).copy(bankData, 0);
  usdc.toBuffer().copy(bankData, 8);
  bankData.writeUInt8(6, 40);
  group.toBuffer().copy(bankData, 41);
  i128(bankData, 80, value);
  i128(bankData, 96, I80F48_ONE);
  vault.toBuffer().copy(bankData, 112);
  bankData.writeUInt8(vaultAuthorityBump, 145);
  i128(bankData, 272, (lenders << 96n) / value);
  write(bank, program, bankData);

  if (parameters.router) {
    registerWith(bed, parameters.router, bank, program, VENUE_LAYOUT.marginfi);
  }
  return {
    ids: {
      marginfiProgram: MARGINFI_PROGRAM_ID,
      group: group.toBase58(),
      bank: bank.toBase58(),
      liquidityVault: vault.toBase58(),
      oracle: oracle.toBase58(),
    },
    program: MARGINFI_PROGRAM_ID,
    group: group.toBase58(),
    bank: bank.toBase58(),
    liquidityVault: vault.toBase58(),
    oracle: oracle.toBase58(),
    accrue: (micros) => {
      const source = bed.mintUsdc(bed.mintAuthority.publicKey, micros);
      const data = Buffer.alloc(16);
      Buffer.from('YRMFACC\0').copy(data, 0);
      data.writeBigUInt64LE(micros, 8);
      sendAsAuthority({
        sender: bed,
        authority: bed.mintAuthority,
        instructions: [
          new TransactionInstruction({
            programId: program,
            keys: [
              { pubkey: bed.mintAuthority.publicKey, isSigner: true, isWritable: false },
              { pubkey: source, isSigner: false, isWritable: true },
              { pubkey: vault, isSigner: false, isWritable: true },
              { pubkey: bank, isSigner: false, isWritable: true },
              { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
            ],
            data,
          }),
        ],
        what: 'marginfi accrue',
      });
    },
  };
}
