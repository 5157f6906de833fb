import { PublicKey } from '@solana/web3.js';

/** The two CCTP v2 programs a Solana cluster runs (ids are settings per network). */
export interface CctpSolanaPrograms {
  /** TokenMessengerMinterV2. */
  readonly tokenMessengerMinter: PublicKey;
  /** MessageTransmitterV2. */
  readonly messageTransmitter: PublicKey;
}

const pda = (programId: PublicKey, ...seeds: (string | Uint8Array)[]) =>
  PublicKey.findProgramAddressSync(
    seeds.map((seed) => (typeof seed === 'string' ? Buffer.from(seed, 'utf8') : Buffer.from(seed))),
    programId,
  )[0];

/**
 * The program-derived accounts of CCTP v2 on Solana, from the seeds of the published IDLs
 * (circlefin/solana-cctp-contracts, `token_messenger_minter_v2` / `message_transmitter_v2`).
 * Domains enter seeds as their decimal text, as the programs derive them.
 *
 * @example
 * cctpSolanaPdas(programs).remoteTokenMessenger(6) // the Base messenger's registration
 */
export function cctpSolanaPdas(programs: CctpSolanaPrograms) {
  const tmm = programs.tokenMessengerMinter;
  const mt = programs.messageTransmitter;
  return {
    senderAuthority: () => pda(tmm, 'sender_authority'),
    denylist: (owner: PublicKey) => pda(tmm, 'denylist_account', owner.toBytes()),
    tokenMessenger: () => pda(tmm, 'token_messenger'),
    tokenMinter: () => pda(tmm, 'token_minter'),
    remoteTokenMessenger: (domain: number) => pda(tmm, 'remote_token_messenger', String(domain)),
    localToken: (mint: PublicKey) => pda(tmm, 'local_token', mint.toBytes()),
    tokenPair: (domain: number, remoteToken: Uint8Array) =>
      pda(tmm, 'token_pair', String(domain), remoteToken),
    custody: (mint: PublicKey) => pda(tmm, 'custody', mint.toBytes()),
    tokenMessengerEventAuthority: () => pda(tmm, '__event_authority'),
    messageTransmitter: () => pda(mt, 'message_transmitter'),
    transmitterAuthority: () => pda(mt, 'message_transmitter_authority', tmm.toBytes()),
    usedNonce: (nonce: Uint8Array) => pda(mt, 'used_nonce', nonce),
    transmitterEventAuthority: () => pda(mt, '__event_authority'),
  };
}
