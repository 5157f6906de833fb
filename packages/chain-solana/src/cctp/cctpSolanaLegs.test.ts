import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram, VersionedTransaction } from '@solana/web3.js';
import type { MessageCompiledInstruction } from '@solana/web3.js';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegBuild } from '@yieldrouter/schemas';
import { startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import { MEMO_PROGRAM_ID, planMemoText } from '../instructions/planMemo';
import { createSolanaContext } from '../solanaContext';
import type { SolanaContext } from '../solanaContext';
import { associatedTokenAccount } from '../tokenAccounts';
import { unsignedReason } from '../verifyTransactionSignatures';
import { buildCctpSolanaBurn } from './buildCctpSolanaBurn';
import { buildCctpSolanaMint } from './buildCctpSolanaMint';
import { readCctpSolanaBurn } from './readCctpSolanaBurn';
import { readCctpSolanaMint } from './readCctpSolanaMint';

// Facts of the published v2 IDLs (circlefin/solana-cctp-contracts), restated here on purpose:
// the builders must agree with them, not with themselves.
const TMM = new PublicKey('CCTPV2vPZJS2u2BBsUoscuikbYjnpFmbFsvVuJdgUMQe');
const MT = new PublicKey('CCTPV2Sm4AdWt5296sk4P66VBZ7bEhcARwFaaS9YPbeC');
const programs = { tokenMessengerMinter: TMM, messageTransmitter: MT };
const DEPOSIT_FOR_BURN = [215, 60, 61, 46, 114, 55, 128, 176];
const RECEIVE_MESSAGE = [38, 144, 127, 225, 31, 225, 238, 25];
const seed = (text: string) => Buffer.from(text, 'utf8');
const pda = (program: PublicKey, ...seeds: Buffer[]) =>
  PublicKey.findProgramAddressSync(seeds, program)[0];

const EVM_RECIPIENT = `0x${'00'.repeat(12)}${'ab'.repeat(20)}` as const;

let bed: SolanaBed;
let context: SolanaContext;
beforeAll(async () => {
  bed = await startSolanaBed();
  context = createSolanaContext({
    rpcUrl: bed.rpcUrl,
    timeoutMs: 2000,
    broadcastEnabled: false,
    usdcMint: bed.usdcMint,
    programId: undefined,
    yieldRouter: undefined,
    adapterRegistry: undefined,
  });
});
afterAll(() => bed.stop());

function onlyTransaction(build: LegBuild) {
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
  const [leg] = build.legs;
  if (!leg || build.legs.length !== 1 || leg.payload.encoding !== 'solana-v0-base64') {
    throw new Error('expected one Solana leg');
  }
  return {
    leg,
    tx: VersionedTransaction.deserialize(Buffer.from(leg.payload.transaction, 'base64')),
  };
}

function instructionsOf(tx: VersionedTransaction) {
  const keys = tx.message.staticAccountKeys;
  return tx.message.compiledInstructions.map((ix: MessageCompiledInstruction) => ({
    program: keys[ix.programIdIndex] as PublicKey,
    accounts: ix.accountKeyIndexes.map((index) => ({
      key: (keys[index] as PublicKey).toBase58(),
      signer: tx.message.isAccountSigner(index),
      writable: tx.message.isAccountWritable(index),
    })),
    data: Buffer.from(ix.data),
  }));
}

async function burn(
  owner: Keypair,
  planId: string,
  serviceFee?: { recipient: string; amountMicros: bigint },
) {
  return buildCctpSolanaBurn(context, {
    planId,
    owner: owner.publicKey.toBase58(),
    amountMicros: 7_000_000n,
    destinationDomain: 6,
    mintRecipient: EVM_RECIPIENT,
    maxFeeMicros: 1_500n,
    minFinalityThreshold: 1000,
    programs,
    ...(serviceFee ? { serviceFee } : {}),
    summary: 'burn',
  });
}

describe('the CCTP v2 burn leg on Solana', () => {
  it('is deposit_for_burn with the IDL accounts, PDAs and borsh params, plus the fee and the memo', async () => {
    const owner = Keypair.generate();
    const feeRecipient = Keypair.generate().publicKey;
    const planId = newPlanId();
    const { leg, tx } = onlyTransaction(
      await burn(owner, planId, { recipient: feeRecipient.toBase58(), amountMicros: 10_000n }),
    );
    expect(leg).toMatchObject({
      chain: 'solana',
      action: 'burn',
      settles: true,
      amountMicros: 7_000_000n,
    });
    const [createFeeAta, feeTransfer, deposit, memo, ...rest] = instructionsOf(tx);
    expect(rest).toEqual([]);
    const mint = new PublicKey(bed.usdcMint);
    const ownerUsdc = associatedTokenAccount(owner.publicKey, mint);
    expect(createFeeAta?.accounts[1]?.key).toBe(
      associatedTokenAccount(feeRecipient, mint).toBase58(),
    );
    expect(feeTransfer?.program.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(memo?.program.equals(MEMO_PROGRAM_ID)).toBe(true);
    expect(memo?.data.toString('utf8')).toBe(planMemoText(planId));

    if (!deposit) throw new Error('no burn');
    expect(deposit.program.equals(TMM)).toBe(true);
    expect([...deposit.data.subarray(0, 8)]).toEqual(DEPOSIT_FOR_BURN);
    expect(deposit.data.length).toBe(96);
    expect(deposit.data.readBigUInt64LE(8)).toBe(7_000_000n);
    expect(deposit.data.readUInt32LE(16)).toBe(6);
    expect(`0x${deposit.data.subarray(20, 52).toString('hex')}`).toBe(EVM_RECIPIENT);
    expect(deposit.data.subarray(52, 84).equals(Buffer.alloc(32))).toBe(true);
    expect(deposit.data.readBigUInt64LE(84)).toBe(1_500n);
    expect(deposit.data.readUInt32LE(92)).toBe(1000);
    const eventAccount = deposit.accounts[11]?.key as string;
    expect(deposit.accounts).toEqual([
      { key: owner.publicKey.toBase58(), signer: true, writable: true },
      { key: owner.publicKey.toBase58(), signer: true, writable: true },
      { key: pda(TMM, seed('sender_authority')).toBase58(), signer: false, writable: false },
      { key: ownerUsdc.toBase58(), signer: false, writable: true },
      {
        key: pda(TMM, seed('denylist_account'), owner.publicKey.toBuffer()).toBase58(),
        signer: false,
        writable: false,
      },
      { key: pda(MT, seed('message_transmitter')).toBase58(), signer: false, writable: true },
      { key: pda(TMM, seed('token_messenger')).toBase58(), signer: false, writable: false },
      {
        key: pda(TMM, seed('remote_token_messenger'), seed('6')).toBase58(),
        signer: false,
        writable: false,
      },
      { key: pda(TMM, seed('token_minter')).toBase58(), signer: false, writable: false },
      {
        key: pda(TMM, seed('local_token'), mint.toBuffer()).toBase58(),
        signer: false,
        writable: true,
      },
      { key: mint.toBase58(), signer: false, writable: true },
      { key: eventAccount, signer: true, writable: true },
      { key: MT.toBase58(), signer: false, writable: false },
      { key: TMM.toBase58(), signer: false, writable: false },
      { key: TOKEN_PROGRAM_ID.toBase58(), signer: false, writable: false },
      { key: SystemProgram.programId.toBase58(), signer: false, writable: false },
      { key: pda(TMM, seed('__event_authority')).toBase58(), signer: false, writable: false },
      { key: TMM.toBase58(), signer: false, writable: false },
    ]);
    // The owner (fee payer) signs later; the event account's signature is already there and valid.
    expect(tx.message.staticAccountKeys[0]?.equals(owner.publicKey)).toBe(true);
    expect(unsignedReason(tx)).toBe(`missing signature of ${owner.publicKey.toBase58()}`);
    tx.sign([owner]);
    expect(unsignedReason(tx)).toBeUndefined();
  });

  it('is a valid v0 transaction the bed runs up to the CCTP program it does not have', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    const { tx } = onlyTransaction(await burn(owner, newPlanId()));
    tx.sign([owner]);
    const outcome = bed.send(tx, { preflight: true });
    // Signatures, blockhash and accounts pass; what fails is the missing program, nothing else.
    expect(outcome.landed).toBe(false);
    if (outcome.landed) return;
    expect(JSON.stringify(outcome.err)).toMatch(
      /ProgramAccountNotFound|InvalidProgramForExecution/,
    );
  });

  it('is read back from its receipt: the burned amount, the domain and the recipient as bytes32', async () => {
    const owner = bed.createFundedKeypair();
    const ownerUsdc = bed.mintUsdc(owner.publicKey, 10_000_000n).toBase58();
    const planId = newPlanId();
    const { tx } = onlyTransaction(await burn(owner, planId));
    tx.sign([owner]);
    const query = { planId, owner: owner.publicKey.toBase58(), programs };
    const burned = bed.record(tx, { tokenDeltas: { [ownerUsdc]: -7_000_000n } });
    expect(await readCctpSolanaBurn(context, { ...query, txId: burned.signature })).toEqual({
      status: 'confirmed',
      txId: burned.signature,
      amountMicros: 7_000_000n,
      destinationDomain: 6,
      mintRecipient: EVM_RECIPIENT,
    });

    // Less left the USDC supply than the burn names: not believed.
    const { tx: short } = onlyTransaction(await burn(owner, planId));
    short.sign([owner]);
    const shortTx = bed.record(short, { tokenDeltas: { [ownerUsdc]: -6_000_000n } });
    expect(await readCctpSolanaBurn(context, { ...query, txId: shortTx.signature })).toMatchObject({
      status: 'mismatch',
    });
    // Another plan's burn, and a burn that failed on chain.
    expect(
      await readCctpSolanaBurn(context, { ...query, planId: newPlanId(), txId: burned.signature }),
    ).toMatchObject({ status: 'mismatch' });
    const { tx: failing } = onlyTransaction(await burn(owner, planId));
    failing.sign([owner]);
    const failed = bed.record(failing, { err: { InstructionError: [0, 'InvalidAccountData'] } });
    expect(await readCctpSolanaBurn(context, { ...query, txId: failed.signature })).toMatchObject({
      status: 'failed',
    });
  });
});

/** A CCTP v2 burn message from Base (domain 6) minting to `recipient` on Solana (domain 5). */
function messageTo(recipient: PublicKey, amount: bigint, nonce: Buffer) {
  const header = Buffer.alloc(148);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(6, 4);
  header.writeUInt32BE(5, 8);
  nonce.copy(header, 12);
  const body = Buffer.alloc(228);
  body.writeUInt32BE(1, 0);
  Buffer.from(`${'00'.repeat(12)}${'cd'.repeat(20)}`, 'hex').copy(body, 4);
  recipient.toBuffer().copy(body, 36);
  Buffer.from(amount.toString(16).padStart(64, '0'), 'hex').copy(body, 68);
  return Buffer.concat([header, body]);
}

describe('the CCTP v2 mint leg on Solana', () => {
  it('is receive_message with the IDL accounts and the receiver accounts derived from the message', async () => {
    const owner = bed.createFundedKeypair();
    const mint = new PublicKey(bed.usdcMint);
    const ownerUsdc = associatedTokenAccount(owner.publicKey, mint);
    const nonce = Buffer.alloc(32, 7);
    const message = messageTo(ownerUsdc, 5_000_000n, nonce);
    const attestation = Buffer.alloc(65, 9);
    const feeRecipient = Keypair.generate().publicKey;
    const planId = newPlanId();
    const build = (text: Buffer) =>
      buildCctpSolanaMint(context, {
        planId,
        owner: owner.publicKey.toBase58(),
        amountMicros: 5_000_000n,
        programs,
        feeRecipient: feeRecipient.toBase58(),
        message: `0x${text.toString('hex')}`,
        attestation: `0x${attestation.toString('hex')}`,
        summary: 'mint',
      });
    const { leg, tx } = onlyTransaction(await build(message));
    expect(leg).toMatchObject({ action: 'mint', amountMicros: 5_000_000n });
    // Only receive_message fits a transaction beside a message and two attesters' signatures.
    const [receive, ...others] = instructionsOf(tx);
    expect(others).toEqual([]);
    expect(tx.serialize().length).toBeLessThanOrEqual(1232 - 65);
    if (!receive) throw new Error('no receive');
    expect(receive.program.equals(MT)).toBe(true);
    expect([...receive.data.subarray(0, 8)]).toEqual(RECEIVE_MESSAGE);
    expect(receive.data.readUInt32LE(8)).toBe(message.length);
    expect(receive.data.subarray(12, 12 + message.length).equals(message)).toBe(true);
    expect(receive.data.readUInt32LE(12 + message.length)).toBe(65);
    expect(receive.data.subarray(16 + message.length).equals(attestation)).toBe(true);
    const remoteToken = message.subarray(152, 184);
    const row = (key: PublicKey, writable = false, signer = false) => ({
      key: key.toBase58(),
      signer,
      writable,
    });
    expect(receive.accounts).toEqual([
      row(owner.publicKey, true, true),
      row(owner.publicKey, true, true),
      row(pda(MT, seed('message_transmitter_authority'), TMM.toBuffer())),
      row(pda(MT, seed('message_transmitter'))),
      row(pda(MT, seed('used_nonce'), nonce), true),
      row(TMM),
      row(SystemProgram.programId),
      row(pda(MT, seed('__event_authority'))),
      row(MT),
      row(pda(TMM, seed('token_messenger'))),
      row(pda(TMM, seed('remote_token_messenger'), seed('6'))),
      row(pda(TMM, seed('token_minter')), true),
      row(pda(TMM, seed('local_token'), mint.toBuffer()), true),
      row(pda(TMM, seed('token_pair'), seed('6'), remoteToken)),
      row(associatedTokenAccount(feeRecipient, mint), true),
      row(ownerUsdc, true),
      row(pda(TMM, seed('custody'), mint.toBuffer()), true),
      row(TOKEN_PROGRAM_ID),
      row(pda(TMM, seed('__event_authority'))),
      row(TMM),
    ]);
    // A message that mints to anyone else's account is refused before anything is built.
    await expect(build(messageTo(Keypair.generate().publicKey, 5_000_000n, nonce))).rejects.toThrow(
      /not the owner's USDC account/,
    );
  });

  it("is read back by the message nonce and the owner's USDC balance change", async () => {
    const owner = bed.createFundedKeypair();
    const mint = new PublicKey(bed.usdcMint);
    const ownerUsdc = bed.mintUsdc(owner.publicKey, 1n);
    const nonce = Buffer.alloc(32, 3);
    const { tx } = onlyTransaction(
      await buildCctpSolanaMint(context, {
        planId: newPlanId(),
        owner: owner.publicKey.toBase58(),
        amountMicros: 5_000_000n,
        programs,
        feeRecipient: Keypair.generate().publicKey.toBase58(),
        message: `0x${messageTo(associatedTokenAccount(owner.publicKey, mint), 5_000_000n, nonce).toString('hex')}`,
        attestation: `0x${'11'.repeat(65)}`,
        summary: 'mint',
      }),
    );
    tx.sign([owner]);
    const minted = bed.record(tx, { tokenDeltas: { [ownerUsdc.toBase58()]: 4_999_000n } });
    const query = { txId: minted.signature, recipient: owner.publicKey.toBase58(), programs };
    expect(
      await readCctpSolanaMint(context, { ...query, nonce: `0x${nonce.toString('hex')}` }),
    ).toEqual({
      status: 'confirmed',
      txId: minted.signature,
      amountMicros: 4_999_000n,
      feeMicros: 1_000n,
    });
    expect(
      await readCctpSolanaMint(context, { ...query, nonce: `0x${'04'.repeat(32)}` }),
    ).toMatchObject({ status: 'mismatch' });
    expect(
      await readCctpSolanaMint(context, {
        ...query,
        recipient: Keypair.generate().publicKey.toBase58(),
        nonce: `0x${nonce.toString('hex')}`,
      }),
    ).toMatchObject({ status: 'mismatch' });
  });
});
