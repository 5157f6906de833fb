import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { tokenAccountData } from './tokenAccountData';

// The state accounts of our CCTP v2 stand-ins (programs/cctp_*), written from
// include/cctp_standin.h: the PDAs Circle's programs use, holding the stand-ins' own compact
// layouts. The bed writes them when it loads the programs (as a cluster's genesis would).
// packages/chain-solana derives the same PDAs for the legs on its own; the tests cross-check.

/** The two stand-in programs (any ids: the bed picks them). */
export interface CctpStandinPrograms {
  readonly tokenMessengerMinter: PublicKey;
  readonly messageTransmitter: PublicKey;
}

/** A remote domain the token messenger accepts messages from and burns towards. */
export interface CctpStandinRemote {
  readonly domain: number;
  /** The domain's token messenger as bytes32 (an EVM address left-padded). */
  readonly tokenMessenger: Uint8Array;
  /** The domain's USDC as bytes32: the burn token its messages name. */
  readonly usdc: Uint8Array;
}

export interface CctpStandinState {
  readonly programs: CctpStandinPrograms;
  /** Solana's CCTP domain, 5. */
  readonly localDomain: number;
  /** The attester's 20-byte EVM address. */
  readonly attester: Uint8Array;
  /** The wallet whose USDC associated token account takes the fee of a fast mint. */
  readonly feeRecipient: PublicKey;
  readonly usdcMint: PublicKey;
  readonly remotes: readonly CctpStandinRemote[];
}

/** One account to write: address, owner program, data. */
export interface CctpStandinAccount {
  readonly address: PublicKey;
  readonly owner: PublicKey;
  readonly data: Uint8Array;
}

const seed = (value: string | Uint8Array) =>
  typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);

const pdaOf = (program: PublicKey, ...seeds: (string | Uint8Array)[]) =>
  PublicKey.findProgramAddressSync(seeds.map(seed), program);

/** The stand-ins' PDAs (the seeds of Circle's v2 programs). */
export function cctpStandinPdas(programs: CctpStandinPrograms) {
  const tmm = programs.tokenMessengerMinter;
  const mt = programs.messageTransmitter;
  return {
    messageTransmitter: () => pdaOf(mt, 'message_transmitter')[0],
    usedNonce: (nonce: Uint8Array) => pdaOf(mt, 'used_nonce', nonce)[0],
    tokenMessenger: () => pdaOf(tmm, 'token_messenger')[0],
    tokenMinter: () => pdaOf(tmm, 'token_minter'),
    remoteTokenMessenger: (domain: number) =>
      pdaOf(tmm, 'remote_token_messenger', String(domain))[0],
    localToken: (mint: PublicKey) => pdaOf(tmm, 'local_token', mint.toBytes())[0],
    tokenPair: (domain: number, remoteToken: Uint8Array) =>
      pdaOf(tmm, 'token_pair', String(domain), remoteToken)[0],
    custody: (mint: PublicKey) => pdaOf(tmm, 'custody', mint.toBytes())[0],
  };
}

const magic = (tag: string) => Buffer.from(`YRCCTP${tag}`, 'ascii');

function record(tag: string, length: number, fill: (data: Buffer) => void): Uint8Array {
  const data = Buffer.alloc(length);
  magic(tag).copy(data, 0);
  fill(data);
  return new Uint8Array(data);
}

/** A token account of `mint` owned by `owner` holding nothing (the custody). */
function emptyTokenAccount(mint: PublicKey, owner: PublicKey): Uint8Array {
  return new Uint8Array(tokenAccountData(mint, owner, 0n));
}

/**
 * Every state account the stand-ins read: the transmitter (local domain, attester), the token
 * messenger (transmitter program, fee recipient), the token minter, the local token and its
 * custody token account (empty: fund it with a real mint), and per remote domain its token
 * messenger registration and the token pair of its USDC.
 *
 * @example
 * for (const account of cctpStandinAccounts(state)) writeAccount(svm, account)
 */
export function cctpStandinAccounts(state: CctpStandinState): CctpStandinAccount[] {
  const { programs } = state;
  const tmm = programs.tokenMessengerMinter;
  const pdas = cctpStandinPdas(programs);
  if (state.attester.length !== 20) throw new Error('attester: 20 bytes');
  const [tokenMinter, minterBump] = pdas.tokenMinter();
  const localToken = pdas.localToken(state.usdcMint);
  const accounts: CctpStandinAccount[] = [
    {
      address: pdas.messageTransmitter(),
      owner: programs.messageTransmitter,
      data: record('MT', 32, (data) => {
        data.writeUInt32LE(state.localDomain, 8);
        data.set(state.attester, 12);
      }),
    },
    {
      address: pdas.tokenMessenger(),
      owner: tmm,
      data: record('TM', 72, (data) => {
        data.set(programs.messageTransmitter.toBytes(), 8);
        data.set(state.feeRecipient.toBytes(), 40);
      }),
    },
    {
      address: tokenMinter,
      owner: tmm,
      data: record('MN', 16, (data) => data.writeUInt8(minterBump, 8)),
    },
    {
      address: localToken,
      owner: tmm,
      data: record('LT', 40, (data) => data.set(state.usdcMint.toBytes(), 8)),
    },
    {
      address: pdas.custody(state.usdcMint),
      owner: TOKEN_PROGRAM_ID,
      data: emptyTokenAccount(state.usdcMint, tokenMinter),
    },
  ];
  for (const remote of state.remotes) {
    if (remote.tokenMessenger.length !== 32 || remote.usdc.length !== 32) {
      throw new Error('remote token messenger and USDC: 32 bytes each');
    }
    accounts.push(
      {
        address: pdas.remoteTokenMessenger(remote.domain),
        owner: tmm,
        data: record('RM', 48, (data) => {
          data.writeUInt32LE(remote.domain, 8);
          data.set(remote.tokenMessenger, 12);
        }),
      },
      {
        address: pdas.tokenPair(remote.domain, remote.usdc),
        owner: tmm,
        data: record('TP', 80, (data) => {
          data.writeUInt32LE(remote.domain, 8);
          data.set(remote.usdc, 12);
          data.set(localToken.toBytes(), 44);
        }),
      },
    );
  }
  return accounts;
}
