import { randomBytes } from 'node:crypto';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { normalizeSuiAddress, toBase58 } from '@mysten/sui/utils';
import { hexToBytes, keccak256, pad } from 'viem';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, sign } from 'viem/accounts';
import { startIrisFake, suiIrisSource } from '../bridges';
import { cctpBedAttester } from '../evm/deployCctpPair';
import type { SuiFakeCctp } from './cctp';
import { decodeBurnMessage, decodeMessage, encodeBurnMessage, encodeMessage } from './cctpMessages';
import { recoverSigner } from './ecrecover';
import type { SuiFake } from './server';
import { startSuiFake } from './server';

// The fake runs Circle's CCTP v2 packages for Sui: the three-call burn takes the coin and sends
// the v2 message; the four-call mint checks the attester, the domain and the nonce, then mints
// the net amount to the recipient and the fee to the fee recipient. Anything else moves nothing.
const USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
const BASE_MESSENGER = pad(`0x${'be'.repeat(20)}`, { size: 32 });
const BASE_USDC = pad(`0x${'bc'.repeat(20)}`, { size: 32 });
const FEE_RECIPIENT = normalizeSuiAddress(`0x${'fe'.repeat(32)}`);

let fake: SuiFake;
let client: SuiJsonRpcClient;
let cctp: SuiFakeCctp;

beforeAll(async () => {
  fake = await startSuiFake();
  client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: fake.rpcUrl }),
  });
  cctp = fake.addCctp({
    usdcCoinType: USDC,
    attester: cctpBedAttester().address,
    remotes: [{ domain: 6, tokenMessenger: BASE_MESSENGER, usdc: BASE_USDC }],
    feeRecipient: FEE_RECIPIENT,
  });
});
afterAll(() => fake.stop());

const usdcOf = async (owner: string) =>
  BigInt((await client.getBalance({ owner, coinType: USDC })).totalBalance);

async function execute(wallet: Ed25519Keypair, build: (tx: Transaction) => void) {
  const tx = new Transaction();
  tx.setSender(wallet.toSuiAddress());
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  build(tx);
  const bytes = await tx.build({ client });
  const { signature } = await wallet.signTransaction(bytes);
  return client.executeTransactionBlock({
    transactionBlock: bytes,
    signature,
    options: { showEffects: true, showEvents: true, showBalanceChanges: true },
  });
}

function funded() {
  const wallet = new Ed25519Keypair();
  fake.setBalance(wallet.toSuiAddress(), '0x2::sui::SUI', 1_000_000_000n);
  fake.setBalance(wallet.toSuiAddress(), USDC, 50_000_000n);
  return wallet;
}

const tmm = () => cctp.tokenMessengerMinterPackage;
const auth = () => `${cctp.stablecoinHandlerPackage}::handler::Auth`;

function burnCalls(
  tx: Transaction,
  amount: bigint,
  options: { complete?: boolean; domain?: number } = {},
) {
  const [receipt, coin] = tx.moveCall({
    target: `${tmm()}::deposit_for_burn::deposit_for_burn`,
    typeArguments: [USDC],
    arguments: [
      tx.add(coinWithBalance({ type: USDC, balance: amount })),
      tx.pure.u32(options.domain ?? 6),
      tx.pure.address(BASE_USDC.replace('bc', 'ab')),
      tx.pure.address('0x0'),
      tx.pure.u256(0n),
      tx.pure.u32(2000),
      tx.pure.vector('u8', []),
      tx.object(cctp.tokenMessengerMinterState.objectId),
    ],
  });
  if (!receipt || !coin) throw new Error('no results');
  const ticket = tx.moveCall({
    target: `${cctp.stablecoinHandlerPackage}::handler::burn`,
    arguments: [
      tx.object(cctp.stablecoinHandlerState.objectId),
      receipt,
      coin,
      tx.object('0x403'),
      tx.object(cctp.usdcTreasury.objectId),
    ],
  });
  if (options.complete === false) return;
  tx.moveCall({
    target: `${tmm()}::deposit_for_burn::complete_burn`,
    typeArguments: [USDC, auth()],
    arguments: [
      ticket,
      tx.object(cctp.tokenMessengerMinterState.objectId),
      tx.object(cctp.messageTransmitterState.objectId),
    ],
  });
}

/** A burn on Base for `recipient` on Sui as Iris attests it (nonce and executed finality set). */
function baseMessage(recipient: string, nonce: number, overrides: { domain?: number } = {}) {
  return encodeMessage({
    version: 1,
    sourceDomain: 6,
    destinationDomain: overrides.domain ?? 8,
    nonce: pad(`0x${nonce.toString(16).padStart(2, '0')}`, { size: 32 }),
    sender: BASE_MESSENGER,
    recipient: cctp.tokenMessengerIdentifier,
    destinationCaller: `0x${'00'.repeat(32)}`,
    minFinalityThreshold: 2000,
    finalityThresholdExecuted: 2000,
    body: encodeBurnMessage({
      version: 1,
      burnToken: BASE_USDC,
      mintRecipient: recipient as Hex,
      amount: 5_000_000n,
      messageSender: pad(`0x${'99'.repeat(20)}`, { size: 32 }),
      maxFee: 10n,
      feeExecuted: 2n,
      expirationBlock: 0n,
      hookData: '0x',
    }),
  });
}

const attest = (message: Hex, privateKey: Hex = cctpBedAttester().privateKey) =>
  sign({ hash: keccak256(message), privateKey, to: 'hex' });

async function mint(wallet: Ed25519Keypair, message: Hex, attestation: Hex) {
  return execute(wallet, (tx) => {
    const receipt = tx.moveCall({
      target: `${cctp.messageTransmitterPackage}::receive_message::receive_message`,
      arguments: [
        tx.pure.vector('u8', hexToBytes(message)),
        tx.pure.vector('u8', hexToBytes(attestation)),
        tx.object(cctp.messageTransmitterState.objectId),
      ],
    });
    const mintReceipt = tx.moveCall({
      target: `${tmm()}::handle_receive_message::prepare_mint`,
      typeArguments: [USDC],
      arguments: [receipt, tx.object(cctp.tokenMessengerMinterState.objectId), tx.object('0x6')],
    });
    const ticket = tx.moveCall({
      target: `${cctp.stablecoinHandlerPackage}::handler::mint`,
      arguments: [
        tx.object(cctp.stablecoinHandlerState.objectId),
        mintReceipt,
        tx.object(cctp.tokenMessengerMinterState.objectId),
        tx.object(cctp.usdcTreasury.objectId),
        tx.object('0x403'),
      ],
    });
    tx.moveCall({
      target: `${tmm()}::handle_receive_message::complete_mint`,
      typeArguments: [USDC, auth()],
      arguments: [
        ticket,
        tx.object(cctp.tokenMessengerMinterState.objectId),
        tx.object(cctp.messageTransmitterState.objectId),
      ],
    });
  });
}

describe('the burn', () => {
  it('takes the coin (supply down), sends the v2 message and emits DepositForBurn', async () => {
    const wallet = funded();
    const owner = wallet.toSuiAddress();
    const supply = cctp.supplyChange();
    const result = await execute(wallet, (tx) => burnCalls(tx, 9_000_000n));
    expect(result.effects?.status.status).toBe('success');
    expect(await usdcOf(owner)).toBe(41_000_000n);
    expect(cctp.supplyChange() - supply).toBe(-9_000_000n);
    const [sent, deposit, ...others] = result.events ?? [];
    expect(others).toEqual([]);
    expect(sent?.type).toBe(`${cctp.messageTransmitterPackage}::send_message::MessageSent`);
    const bytes = Uint8Array.from((sent?.parsedJson as { message: number[] }).message);
    const message = decodeMessage(bytes);
    expect(message).toMatchObject({
      version: 1,
      sourceDomain: 8,
      destinationDomain: 6,
      nonce: `0x${'00'.repeat(32)}`,
      sender: cctp.tokenMessengerIdentifier,
      recipient: BASE_MESSENGER,
      minFinalityThreshold: 2000,
      finalityThresholdExecuted: 0,
    });
    expect(decodeBurnMessage(message?.body ?? '0x')).toMatchObject({
      version: 1,
      burnToken: cctp.usdcTokenId,
      amount: 9_000_000n,
      messageSender: owner,
      maxFee: 0n,
      feeExecuted: 0n,
    });
    expect(deposit).toMatchObject({
      type: `${tmm()}::deposit_for_burn::DepositForBurn`,
      parsedJson: {
        burn_token: cctp.usdcTokenId,
        amount: '9000000',
        depositor: owner,
        destination_domain: 6,
        destination_token_messenger: BASE_MESSENGER,
        max_fee: '0',
        min_finality_threshold: 2000,
        hook_data: [],
      },
    });
  });

  it('fails with the ticket left unconsumed, and for a domain with no token messenger: nothing moves', async () => {
    const wallet = funded();
    const supply = cctp.supplyChange();
    const unfinished = await execute(wallet, (tx) =>
      burnCalls(tx, 1_000_000n, { complete: false }),
    );
    expect(unfinished.effects?.status).toMatchObject({ status: 'failure' });
    expect(unfinished.effects?.status.error).toContain('UnusedValueWithoutDrop');
    const nowhere = await execute(wallet, (tx) => burnCalls(tx, 1_000_000n, { domain: 3 }));
    expect(nowhere.effects?.status.error).toMatch(/deposit_for_burn.*, 2\)/);
    expect(await usdcOf(wallet.toSuiAddress())).toBe(50_000_000n);
    expect(cctp.supplyChange()).toBe(supply);
  });

  it('burns towards a remote registered after the packages (addRemote), to its token messenger', async () => {
    const wallet = funded();
    const messenger = pad(`0x${'5a'.repeat(20)}`, { size: 32 });
    const before = await execute(wallet, (tx) => burnCalls(tx, 1_000_000n, { domain: 5 }));
    expect(before.effects?.status.error).toMatch(/deposit_for_burn.*, 2\)/);
    cctp.addRemote({ domain: 5, tokenMessenger: messenger, usdc: BASE_USDC });
    const after = await execute(wallet, (tx) => burnCalls(tx, 1_000_000n, { domain: 5 }));
    expect(after.effects?.status.status).toBe('success');
    const sent = after.events?.[0]?.parsedJson as { message: number[] };
    expect(decodeMessage(Uint8Array.from(sent.message))).toMatchObject({
      destinationDomain: 5,
      recipient: messenger,
    });
    expect(await usdcOf(wallet.toSuiAddress())).toBe(49_000_000n);
  });
});

describe('the mint', () => {
  it('mints the net amount to the recipient and the fee to the fee recipient, once', async () => {
    const relayer = funded();
    const recipient = new Ed25519Keypair().toSuiAddress();
    const message = baseMessage(recipient, 1);
    const supply = cctp.supplyChange();
    const fees = await usdcOf(FEE_RECIPIENT);
    const result = await mint(relayer, message, await attest(message));
    expect(result.effects?.status.status).toBe('success');
    expect(await usdcOf(recipient)).toBe(4_999_998n);
    expect((await usdcOf(FEE_RECIPIENT)) - fees).toBe(2n);
    expect(cctp.supplyChange() - supply).toBe(5_000_000n);
    expect(result.events?.map((event) => [event.type, event.parsedJson])).toEqual([
      [
        `${tmm()}::handle_receive_message::MintAndWithdraw`,
        {
          mint_recipient: recipient,
          amount: '4999998',
          mint_token: cctp.usdcTokenId,
          fee_collected: '2',
        },
      ],
      [
        `${cctp.messageTransmitterPackage}::receive_message::MessageReceived`,
        {
          caller: relayer.toSuiAddress(),
          source_domain: 6,
          nonce: '1',
          sender: BASE_MESSENGER,
          finality_threshold_executed: 2000,
          message_body: [...hexToBytes(decodeMessage(hexToBytes(message))?.body ?? '0x')],
        },
      ],
    ]);
    expect(cctp.nonceUsed(pad('0x01', { size: 32 }))).toBe(true);
    // The same message again: the nonce is used, nothing more is minted.
    const again = await mint(relayer, message, await attest(message));
    expect(again.effects?.status.status).toBe('failure');
    expect(again.effects?.status.error).toMatch(/receive_message.*, 4\)/);
    expect(await usdcOf(recipient)).toBe(4_999_998n);
  });

  it('refuses another signer, another destination domain and a changed message', async () => {
    const relayer = funded();
    const recipient = new Ed25519Keypair().toSuiAddress();
    const message = baseMessage(recipient, 2);
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect(stranger.address).not.toBe(cctpBedAttester().address);
    const forged = await mint(relayer, message, await attest(message, generatePrivateKey()));
    expect(forged.effects?.status.status).toBe('failure');
    const elsewhere = baseMessage(recipient, 3, { domain: 5 });
    const wrongDomain = await mint(relayer, elsewhere, await attest(elsewhere));
    expect(wrongDomain.effects?.status.status).toBe('failure');
    const changed = baseMessage(new Ed25519Keypair().toSuiAddress(), 2);
    const tampered = await mint(relayer, changed, await attest(message));
    expect(tampered.effects?.status.status).toBe('failure');
    expect(await usdcOf(recipient)).toBe(0n);
    expect(cctp.nonceUsed(pad('0x02', { size: 32 }))).toBe(false);
  });
});

describe('the Iris fake over the Sui fake', () => {
  it("attests a Sui burn from its MessageSent event: nonce and finality set, the bed attester's signature", async () => {
    const wallet = funded();
    const burn = await execute(wallet, (tx) => burnCalls(tx, 7_000_000n));
    const iris = await startIrisFake({
      domains: [
        suiIrisSource({
          rpcUrl: fake.rpcUrl,
          messageTransmitterPackage: cctp.messageTransmitterPackage,
        }),
      ],
    });
    try {
      const response = await fetch(`${iris.url}/v2/messages/8?transactionHash=${burn.digest}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        messages: { message: Hex; attestation: Hex; status: string; cctpVersion: number }[];
      };
      const [attested, ...others] = body.messages;
      expect(others).toEqual([]);
      expect(attested).toMatchObject({ status: 'complete', cctpVersion: 2 });
      const message = decodeMessage(hexToBytes(attested?.message ?? '0x'));
      expect(message).toMatchObject({
        sourceDomain: 8,
        destinationDomain: 6,
        finalityThresholdExecuted: 2000,
      });
      expect(BigInt(message?.nonce ?? 0)).not.toBe(0n);
      expect(decodeBurnMessage(message?.body ?? '0x')).toMatchObject({ amount: 7_000_000n });
      expect(
        recoverSigner(keccak256(attested?.message ?? '0x'), attested?.attestation ?? '0x'),
      ).toBe(cctpBedAttester().address);
      // A digest the chain does not know: not found yet; something that is no digest: refused.
      const unknown = await fetch(
        `${iris.url}/v2/messages/8?transactionHash=${toBase58(randomBytes(32))}`,
      );
      expect(unknown.status).toBe(404);
      const garbled = await fetch(
        `${iris.url}/v2/messages/8?transactionHash=${new Ed25519Keypair().toSuiAddress().slice(0, 10)}`,
      );
      expect(garbled.status).toBe(400);
    } finally {
      await iris.close();
    }
  });
});
