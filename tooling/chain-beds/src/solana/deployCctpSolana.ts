import { createMintToCheckedInstruction } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  cctpStandinAccounts,
  cctpStandinPdas,
  ensureProgramsBuilt,
  loadProgram,
} from '@yieldrouter/solana-programs';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';
import { writeAccount } from './svmAccounts';

/** Solana's CCTP domain. */
export const SOLANA_CCTP_DOMAIN = 5;

/** A remote chain the stand-ins link to: its domain, token messenger and USDC (0x hex). */
export interface SolanaCctpRemote {
  readonly domain: number;
  /** An EVM address (20 bytes) or a bytes32. */
  readonly tokenMessenger: `0x${string}`;
  readonly usdc: `0x${string}`;
}

export interface DeployCctpSolanaParameters {
  /** The attester's EVM address the transmitter trusts (the bed's: `cctpBedAttester()`). */
  readonly attester: `0x${string}`;
  readonly remotes: readonly SolanaCctpRemote[];
  /** What the custody holds to pay mints from (default 1,000,000 USDC). */
  readonly custodyMicros?: bigint;
}

/** The CCTP v2 stand-ins in a Solana bed (base58 ids and accounts). */
export interface SolanaCctpDeployment {
  /** TokenMessengerMinterV2 (`SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER`). */
  readonly tokenMessengerMinter: string;
  /** MessageTransmitterV2 (`SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER`). */
  readonly messageTransmitter: string;
  /** The wallet whose USDC account takes a fast mint's fee (`SVC_CCTP_SOLANA_FEE_RECIPIENT`). */
  readonly feeRecipient: string;
  /** The custody token account the mints are paid from (as on Circle's program). */
  readonly custody: string;
}

const bytes32 = (hex: `0x${string}`): Uint8Array => {
  if (!/^0x(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(hex)) {
    throw new Error(`cctp bed: ${hex} is not an address or a bytes32`);
  }
  const out = new Uint8Array(32);
  const bytes = Buffer.from(hex.slice(2), 'hex');
  out.set(bytes, 32 - bytes.length);
  return out;
};

/**
 * Loads our CCTP v2 stand-ins (C, built first when missing or stale: needs clang) at fresh
 * program ids, writes their state (domain 5, the attester, the remotes' token messengers and
 * USDC token pairs), funds the custody the mints are paid from with a real MintToChecked of the
 * bed's USDC, and opens the fee recipient's USDC account. The bed's mint authority stays the
 * bed's: the stand-in pays mints out of the custody its token-minter PDA owns, as Circle's does.
 *
 * @example
 * const cctp = deployCctpSolana(bed, { attester: cctpBedAttester().address, remotes });
 * // SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER=cctp.tokenMessengerMinter, …
 */
export function deployCctpSolana(
  bed: SolanaBed,
  parameters: DeployCctpSolanaParameters,
): SolanaCctpDeployment {
  const built = ensureProgramsBuilt();
  const programs = {
    tokenMessengerMinter: Keypair.generate().publicKey,
    messageTransmitter: Keypair.generate().publicKey,
  };
  const admin = bed.mintAuthority;
  loadProgram(
    bed.svm,
    programs.messageTransmitter,
    built.cctp_message_transmitter,
    admin.publicKey,
  );
  loadProgram(
    bed.svm,
    programs.tokenMessengerMinter,
    built.cctp_token_messenger_minter,
    admin.publicKey,
  );
  const usdcMint = new PublicKey(bed.usdcMint);
  const feeRecipient = Keypair.generate().publicKey;
  const accounts = cctpStandinAccounts({
    programs,
    localDomain: SOLANA_CCTP_DOMAIN,
    attester: bytes32(parameters.attester).subarray(12),
    feeRecipient,
    usdcMint,
    remotes: parameters.remotes.map((remote) => ({
      domain: remote.domain,
      tokenMessenger: bytes32(remote.tokenMessenger),
      usdc: bytes32(remote.usdc),
    })),
  });
  for (const account of accounts) {
    writeAccount(bed.svm, {
      address: account.address.toBase58(),
      owner: account.owner.toBase58(),
      lamports: bed.svm.minimumBalanceForRentExemption(BigInt(account.data.length)),
      data: account.data,
      executable: false,
    });
  }
  const custody = cctpStandinPdas(programs).custody(usdcMint);
  sendAsAuthority({
    sender: bed,
    authority: admin,
    instructions: [
      createMintToCheckedInstruction(
        usdcMint,
        custody,
        admin.publicKey,
        parameters.custodyMicros ?? 1_000_000_000_000n,
        6,
      ),
    ],
    what: 'cctp custody',
  });
  bed.mintUsdc(feeRecipient, 0n);
  return {
    tokenMessengerMinter: programs.tokenMessengerMinter.toBase58(),
    messageTransmitter: programs.messageTransmitter.toBase58(),
    feeRecipient: feeRecipient.toBase58(),
    custody: custody.toBase58(),
  };
}
