import {
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import type { TransactionInstruction, Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegBuild } from '@yieldrouter/schemas';
import { deployCctpSolana, startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed, SolanaCctpDeployment } from '@yieldrouter/chain-beds';
import { anvilAccounts, attestCctpMessage, cctpBedAttester } from '@yieldrouter/chain-beds/evm';
import { createSolanaContext } from '../solanaContext';
import type { SolanaContext } from '../solanaContext';
import { associatedTokenAccount } from '../tokenAccounts';
import { buildCctpSolanaBurn } from './buildCctpSolanaBurn';
import { buildCctpSolanaMint } from './buildCctpSolanaMint';
import { receiveMessageInstruction } from './cctpSolanaInstructions';
import type { CctpSolanaPrograms } from './cctpSolanaPrograms';
import { cctpSolanaPdas } from './cctpSolanaPrograms';
import { parseCctpSolanaPrograms } from './cctpSolanaRecipient';
import { findCctpSolanaMint } from './findCctpSolanaMint';
import { readCctpSolanaBurn } from './readCctpSolanaBurn';
import { readCctpSolanaMint } from './readCctpSolanaMint';

// The Solana legs against the bed's CCTP v2 stand-in programs (C, loaded into litesvm): the mint
// leg receives an attested Base message, the burn leg writes the MessageSent account; and what
// the programs refuse (forged or malleated attestations, another domain, a used nonce, another
// sender, another recipient account, a fee over the max).
const BASE_MESSENGER = `${'00'.repeat(12)}${'28b5a0e9c621a5badaa536219b3a228c8168cf5d'}`;
const BASE_USDC = `${'00'.repeat(12)}${'833589fcd6edb6e08f4c7c32d4f71b54bda02913'}`;
const EVM_RECIPIENT = `0x${'00'.repeat(12)}${'ab'.repeat(20)}` as const;
// Program errors of the stand-ins (include/cctp_standin.h's programs).
const MT = { attestation: 5, domain: 6, nonceUsed: 8 } as const;
const TMM = { invalidAccount: 2, sender: 5, fee: 8, mintRecipient: 10 } as const;

let bed: SolanaBed;
let cctp: SolanaCctpDeployment;
let programs: CctpSolanaPrograms;
let context: SolanaContext;
let owner: Keypair;
beforeAll(async () => {
  bed = await startSolanaBed();
  cctp = deployCctpSolana(bed, {
    attester: cctpBedAttester().address,
    remotes: [{ domain: 6, tokenMessenger: `0x${BASE_MESSENGER}`, usdc: `0x${BASE_USDC}` }],
  });
  programs = parseCctpSolanaPrograms(cctp.tokenMessengerMinter, cctp.messageTransmitter);
  context = createSolanaContext({
    rpcUrl: bed.rpcUrl,
    timeoutMs: 2000,
    broadcastEnabled: false,
    usdcMint: bed.usdcMint,
    programId: undefined,
    yieldRouter: undefined,
    adapterRegistry: undefined,
  });
  owner = bed.createFundedKeypair();
  bed.mintUsdc(owner.publicKey, 0n);
});
afterAll(() => bed.stop());

let nonces = 0;
/** A Base → Solana v2 message (header and burn body) as Base's transmitter and Iris form it. */
function message(
  change: {
    destination?: number;
    sender?: string;
    amount?: bigint;
    maxFee?: bigint;
    fee?: bigint;
    recipient?: PublicKey;
  } = {},
): `0x${string}` {
  const u32 = (value: number) => Buffer.from(value.toString(16).padStart(8, '0'), 'hex');
  const u256 = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
  nonces += 1;
  const bytes = Buffer.concat([
    u32(1),
    u32(6),
    u32(change.destination ?? 5),
    u256(BigInt(nonces) * 7919n),
    Buffer.from(change.sender ?? BASE_MESSENGER, 'hex'),
    new PublicKey(cctp.tokenMessengerMinter).toBuffer(),
    Buffer.alloc(32),
    u32(2000),
    u32(2000),
    u32(1),
    Buffer.from(BASE_USDC, 'hex'),
    (
      change.recipient ?? associatedTokenAccount(owner.publicKey, new PublicKey(bed.usdcMint))
    ).toBuffer(),
    u256(change.amount ?? 4_000_000n),
    Buffer.from(`${'00'.repeat(12)}${'cd'.repeat(20)}`, 'hex'),
    u256(change.maxFee ?? 0n),
    u256(change.fee ?? 0n),
    u256(0n),
  ]);
  return `0x${bytes.toString('hex')}`;
}

function signedLeg(build: LegBuild, signer: Keypair): VersionedTransaction {
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
  const payload = build.legs[0]?.payload;
  if (payload?.encoding !== 'solana-v0-base64') throw new Error('expected one Solana leg');
  const tx = VersionedTransaction.deserialize(Buffer.from(payload.transaction, 'base64'));
  tx.sign([signer]);
  return tx;
}

const mintLeg = async (msg: `0x${string}`, attestation: `0x${string}`) =>
  signedLeg(
    await buildCctpSolanaMint(context, {
      planId: newPlanId(),
      owner: owner.publicKey.toBase58(),
      amountMicros: 1n,
      programs,
      feeRecipient: cctp.feeRecipient,
      message: msg,
      attestation,
      summary: 'mint',
    }),
    owner,
  );

/** The custom error of the failed instruction, or 'ok'. */
function outcomeOf(tx: VersionedTransaction): number | 'ok' | string {
  const outcome = bed.send(tx);
  const err = outcome.landed ? outcome.entry.err : outcome.err;
  if (err === null) return 'ok';
  const custom = /"Custom":(\d+)/.exec(JSON.stringify(err));
  return custom ? Number(custom[1]) : JSON.stringify(err);
}

const usdcOf = (who: PublicKey | string) => bed.usdcBalance(who);
/** The custody token account's amount (u64 LE at byte 64 of an SPL token account). */
function custodyHolds(): bigint {
  const account = bed.svm.getAccount(cctp.custody as never);
  if (!account.exists) throw new Error('no custody');
  return Buffer.from(account.data).readBigUInt64LE(64);
}

describe('receive_message on the MessageTransmitterV2 stand-in', () => {
  it('pays amount − fee to the recipient and the fee to the fee recipient, once', async () => {
    const msg = message({ amount: 4_000_000n, maxFee: 500n, fee: 400n });
    const tx = await mintLeg(msg, await attestCctpMessage(msg));
    const [before, feeBefore, custodyBefore] = [
      usdcOf(owner.publicKey),
      usdcOf(cctp.feeRecipient),
      custodyHolds(),
    ];
    const nonce = `0x${msg.slice(2 + 24, 2 + 88)}`;
    expect(await findCctpSolanaMint(context, { nonce, programs })).toEqual({
      status: 'not_found',
    });
    expect(outcomeOf(tx)).toBe('ok');
    expect(usdcOf(owner.publicKey) - before).toBe(3_999_600n);
    expect(usdcOf(cctp.feeRecipient) - feeBefore).toBe(400n);
    // Paid out of the custody the token minter owns, as Circle's program pays it.
    expect(custodyBefore - custodyHolds()).toBe(4_000_000n);
    const signature = bs58Signature(tx);
    // Found by its used-nonce PDA, whoever sent it.
    expect(await findCctpSolanaMint(context, { nonce, programs })).toEqual({
      status: 'found',
      txId: signature,
    });
    expect(
      await readCctpSolanaMint(context, {
        txId: signature,
        nonce,
        recipient: owner.publicKey.toBase58(),
        programs,
      }),
    ).toEqual({ status: 'confirmed', txId: signature, amountMicros: 3_999_600n, feeMicros: 400n });
    // The same message again, in a fresh transaction: the used nonce exists.
    bed.svm.expireBlockhash();
    const again = await mintLeg(msg, await attestCctpMessage(msg));
    expect(outcomeOf(again)).toBe(MT.nonceUsed);
    expect(usdcOf(owner.publicKey) - before).toBe(3_999_600n);
  });

  it('refuses an attestation by another key, and the malleated (high s) twin of a valid one', async () => {
    const msg = message();
    const other = anvilAccounts()[1];
    if (!other) throw new Error('no anvil account');
    const forged = await mintLeg(msg, await attestCctpMessage(msg, other.privateKey));
    expect(outcomeOf(forged)).toBe(MT.attestation);
    const valid = Buffer.from((await attestCctpMessage(msg)).slice(2), 'hex');
    const order = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
    const s = BigInt(`0x${valid.subarray(32, 64).toString('hex')}`);
    const twin = Buffer.concat([
      valid.subarray(0, 32),
      Buffer.from((order - s).toString(16).padStart(64, '0'), 'hex'),
      Buffer.from([valid[64] === 27 ? 28 : 27]),
    ]);
    expect(outcomeOf(await mintLeg(msg, `0x${twin.toString('hex')}`))).toBe(MT.attestation);
    // The valid one still mints: the refusals consumed nothing.
    expect(outcomeOf(await mintLeg(msg, `0x${valid.toString('hex')}`))).toBe('ok');
  });

  it('refuses another destination domain, an unregistered sender and a fee over the max', async () => {
    const wrongDomain = message({ destination: 3 });
    expect(outcomeOf(await mintLeg(wrongDomain, await attestCctpMessage(wrongDomain)))).toBe(
      MT.domain,
    );
    const stranger = message({ sender: `${'00'.repeat(12)}${'ee'.repeat(20)}` });
    expect(outcomeOf(await mintLeg(stranger, await attestCctpMessage(stranger)))).toBe(TMM.sender);
    const greedy = message({ maxFee: 10n, fee: 11n });
    expect(outcomeOf(await mintLeg(greedy, await attestCctpMessage(greedy)))).toBe(TMM.fee);
  });

  it('refuses to pay another token account than the mint recipient', async () => {
    const msg = message();
    const mint = new PublicKey(bed.usdcMint);
    const thief = bed.createFundedKeypair();
    const thiefUsdc = bed.mintUsdc(thief.publicKey, 0n);
    const instruction = receiveMessageInstruction({
      programs,
      payer: thief.publicKey,
      mint,
      recipientTokenAccount: thiefUsdc,
      feeRecipientTokenAccount: associatedTokenAccount(new PublicKey(cctp.feeRecipient), mint),
      message: Buffer.from(msg.slice(2), 'hex'),
      attestation: Buffer.from((await attestCctpMessage(msg)).slice(2), 'hex'),
    });
    expect(outcomeOf(signed([instruction], thief))).toBe(TMM.mintRecipient);
    expect(usdcOf(thief.publicKey)).toBe(0n);
  });
});

it('finds the receiving transaction past another one that only names the used-nonce PDA', async () => {
  const msg = message();
  const nonce = `0x${msg.slice(2 + 24, 2 + 88)}`;
  const usedNonce = cctpSolanaPdas(programs).usedNonce(Buffer.from(nonce.slice(2), 'hex'));
  const decoy = bed.createFundedKeypair();
  const touch = SystemProgram.transfer({
    fromPubkey: decoy.publicKey,
    toPubkey: usedNonce,
    lamports: 1_000_000,
  });
  expect(outcomeOf(signed([touch], decoy))).toBe('ok');
  expect(await findCctpSolanaMint(context, { nonce, programs })).toEqual({ status: 'not_found' });
  // The receive still creates the used nonce (lamports sent first are topped up, allocated).
  const tx = await mintLeg(msg, await attestCctpMessage(msg));
  expect(outcomeOf(tx)).toBe('ok');
  expect(await findCctpSolanaMint(context, { nonce, programs })).toEqual({
    status: 'found',
    txId: bs58Signature(tx),
  });
});

describe('deposit_for_burn on the TokenMessengerMinterV2 stand-in', () => {
  it('burns from the owner and writes the v2 message into the MessageSent account', async () => {
    const burner = bed.createFundedKeypair();
    bed.mintUsdc(burner.publicKey, 9_000_000n);
    const planId = newPlanId();
    const tx = signedLeg(
      await buildCctpSolanaBurn(context, {
        planId,
        owner: burner.publicKey.toBase58(),
        amountMicros: 7_000_000n,
        destinationDomain: 6,
        mintRecipient: EVM_RECIPIENT,
        maxFeeMicros: 700n,
        minFinalityThreshold: 1000,
        programs,
        summary: 'burn',
      }),
      burner,
    );
    expect(outcomeOf(tx)).toBe('ok');
    expect(usdcOf(burner.publicKey)).toBe(2_000_000n);
    const txId = bs58Signature(tx);
    expect(
      await readCctpSolanaBurn(context, {
        txId,
        planId,
        owner: burner.publicKey.toBase58(),
        programs,
      }),
    ).toEqual({
      status: 'confirmed',
      txId,
      amountMicros: 7_000_000n,
      destinationDomain: 6,
      mintRecipient: EVM_RECIPIENT,
    });
    // The event account: Anchor's MessageSent (discriminator, rent payer, created_at, message).
    const burn = tx.message.compiledInstructions.find((ix) =>
      tx.message.staticAccountKeys[ix.programIdIndex]?.equals(programs.tokenMessengerMinter),
    );
    const event = tx.message.staticAccountKeys[burn?.accountKeyIndexes[11] ?? -1];
    if (!event) throw new Error('no event account');
    const account = bed.svm.getAccount(event.toBase58() as never);
    if (!account.exists) throw new Error('no MessageSent account');
    const data = Buffer.from(account.data);
    expect(account.programAddress).toBe(cctp.messageTransmitter);
    expect([...data.subarray(0, 8)]).toEqual([131, 100, 133, 56, 166, 225, 151, 60]);
    expect(new PublicKey(data.subarray(8, 40)).equals(burner.publicKey)).toBe(true);
    const length = data.readUInt32LE(48);
    const msg = data.subarray(52, 52 + length);
    expect(length).toBe(148 + 228);
    const hex = (from: number, to: number) => msg.subarray(from, to).toString('hex');
    expect([msg.readUInt32BE(0), msg.readUInt32BE(4), msg.readUInt32BE(8)]).toEqual([1, 5, 6]);
    expect(hex(12, 44)).toBe('00'.repeat(32));
    expect(new PublicKey(msg.subarray(44, 76)).equals(programs.tokenMessengerMinter)).toBe(true);
    expect(hex(76, 108)).toBe(BASE_MESSENGER);
    expect([msg.readUInt32BE(140), msg.readUInt32BE(144)]).toEqual([1000, 0]);
    const body = msg.subarray(148);
    expect(body.readUInt32BE(0)).toBe(1);
    expect(new PublicKey(body.subarray(4, 36)).toBase58()).toBe(bed.usdcMint);
    expect(`0x${body.subarray(36, 68).toString('hex')}`).toBe(EVM_RECIPIENT);
    expect(BigInt(`0x${body.subarray(68, 100).toString('hex')}`)).toBe(7_000_000n);
    expect(new PublicKey(body.subarray(100, 132)).equals(burner.publicKey)).toBe(true);
    expect(BigInt(`0x${body.subarray(132, 164).toString('hex')}`)).toBe(700n);
  });

  it('refuses a burn towards a domain with no registered token messenger', async () => {
    const burner = bed.createFundedKeypair();
    bed.mintUsdc(burner.publicKey, 3_000_000n);
    const build = await buildCctpSolanaBurn(context, {
      planId: newPlanId(),
      owner: burner.publicKey.toBase58(),
      amountMicros: 1_000_000n,
      destinationDomain: 3,
      mintRecipient: EVM_RECIPIENT,
      maxFeeMicros: 0n,
      minFinalityThreshold: 2000,
      programs,
      summary: 'burn',
    });
    // No remote_token_messenger PDA for domain 3: not a state account of the program.
    expect(outcomeOf(signedLeg(build, burner))).toBe(TMM.invalidAccount);
    expect(usdcOf(burner.publicKey)).toBe(3_000_000n);
  });
});

function signed(instructions: TransactionInstruction[], payer: Keypair): VersionedTransaction {
  const tx = new VersionedTransaction(
    new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: bed.latestBlockhash(),
      instructions,
    }).compileToV0Message(),
  );
  tx.sign([payer]);
  return tx;
}

function bs58Signature(tx: VersionedTransaction): string {
  const [signature] = tx.signatures;
  if (!signature) throw new Error('unsigned');
  return bs58.encode(signature);
}
