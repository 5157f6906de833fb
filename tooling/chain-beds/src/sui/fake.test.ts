import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcError, JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction, TransactionDataBuilder } from '@mysten/sui/transactions';
import { bcs } from '@mysten/sui/bcs';
import { fromBase64, normalizeSuiAddress, toBase58 } from '@mysten/sui/utils';
import type { SuiFake } from './server';
import { startSuiFake } from './server';

const USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
const PACKAGE = `0x${'b2'.repeat(32)}`;

let fake: SuiFake;
let client: SuiJsonRpcClient;

beforeAll(async () => {
  fake = await startSuiFake();
  client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: fake.rpcUrl }),
  });
});

afterAll(() => fake.stop());

async function rawCall(body: unknown): Promise<unknown> {
  const response = await fetch(fake.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return response.json();
}

describe('balances and coins', () => {
  it('answers suix_getBalance with exact string amounts', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    fake.setBalance(owner, '0x2::sui::SUI', 12_345_678_901_234_567_890n);
    fake.setBalance(owner, USDC, 5_000_000n);
    fake.addCoin(owner, USDC, 1n);

    const sui = await client.getBalance({ owner });
    expect(sui).toEqual({
      coinType: '0x2::sui::SUI',
      coinObjectCount: 1,
      totalBalance: '12345678901234567890',
      lockedBalance: {},
    });
    const usdc = await client.getBalance({ owner, coinType: USDC });
    expect(usdc.totalBalance).toBe('5000001');
    expect(usdc.coinObjectCount).toBe(2);
    expect(usdc.coinType).toBe(USDC);

    const all = await client.getAllBalances({ owner });
    expect(all.map((balance) => balance.totalBalance).sort()).toEqual([
      '12345678901234567890',
      '5000001',
    ]);
  });

  it('reports zero for an unknown owner', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const balance = await client.getBalance({ owner, coinType: USDC });
    expect(balance).toMatchObject({ totalBalance: '0', coinObjectCount: 0 });
  });

  it('pages suix_getCoins and serves coin objects through sui_getObject', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const refs = [fake.addCoin(owner, USDC, 1n), fake.addCoin(owner, USDC, 2n)];
    const first = await client.getCoins({ owner, coinType: USDC, limit: 1 });
    expect(first.hasNextPage).toBe(true);
    expect(first.data[0]).toMatchObject({ coinObjectId: refs[0]?.objectId, balance: '1' });
    const second = await client.getCoins({
      owner,
      coinType: USDC,
      limit: 1,
      cursor: first.nextCursor ?? null,
    });
    expect(second.hasNextPage).toBe(false);
    expect(second.data[0]).toMatchObject({ coinObjectId: refs[1]?.objectId, balance: '2' });

    const object = await client.getObject({
      id: refs[0]?.objectId ?? '',
      options: { showOwner: true, showType: true, showContent: true },
    });
    expect(object.data).toMatchObject({
      objectId: refs[0]?.objectId,
      version: refs[0]?.version,
      digest: refs[0]?.digest,
      type: `0x2::coin::Coin<${USDC}>`,
      owner: { AddressOwner: owner },
    });
    const missing = await client.getObject({ id: `0x${'9'.repeat(64)}` });
    expect(missing.error).toEqual({ code: 'notExists', object_id: `0x${'9'.repeat(64)}` });
  });
});

describe('transactions', () => {
  it('serves recorded effects with the requested parts', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const digest = fake.recordTransaction({
      sender: owner,
      events: [{ type: `${PACKAGE}::router::Deposited`, parsedJson: { amount: '7' } }],
      balanceChanges: [{ owner, coinType: USDC, amount: -7n }],
    });
    const response = await client.getTransactionBlock({
      digest,
      options: { showEffects: true, showEvents: true, showBalanceChanges: true },
    });
    expect(response.digest).toBe(digest);
    expect(response.effects?.status).toEqual({ status: 'success' });
    expect(response.effects?.transactionDigest).toBe(digest);
    expect(response.checkpoint).toMatch(/^\d+$/);
    expect(response.events?.[0]).toMatchObject({
      id: { txDigest: digest, eventSeq: '0' },
      packageId: PACKAGE,
      transactionModule: 'router',
      sender: owner,
      type: `${PACKAGE}::router::Deposited`,
      parsedJson: { amount: '7' },
    });
    expect(response.balanceChanges).toEqual([
      { owner: { AddressOwner: owner }, coinType: USDC, amount: '-7' },
    ]);

    const bare = await client.getTransactionBlock({ digest });
    expect(bare.effects).toBeUndefined();
    expect(bare.events).toBeUndefined();
  });

  it('reports a failed transaction with its error', async () => {
    const digest = fake.recordTransaction({
      sender: `0x${'1'.repeat(64)}`,
      status: 'failure',
      error: 'MoveAbort(router, 3)',
    });
    const response = await client.getTransactionBlock({ digest, options: { showEffects: true } });
    expect(response.effects?.status).toEqual({ status: 'failure', error: 'MoveAbort(router, 3)' });
  });

  it('shows a recorded transaction input as a node does: pure values typed by their use', async () => {
    const sender = new Ed25519Keypair().toSuiAddress();
    const gas = fake.setBalance(sender, '0x2::sui::SUI', 1_000_000_000n);
    const router = fake.addSharedObject({ type: `${PACKAGE}::router::YieldRouter` });
    if (!gas) throw new Error('setup');
    fake.defineMoveFunction(`${PACKAGE}::router::withdraw_from_venue`, [
      `&mut ${PACKAGE}::router::YieldRouter`,
      'u64',
      'address',
      'vector<u8>',
    ]);
    const tx = new Transaction();
    tx.setSender(sender);
    tx.setGasPayment([gas]);
    tx.setGasPrice(1000n);
    tx.setGasBudget(10_000_000n);
    const coin = tx.moveCall({
      target: `${PACKAGE}::router::withdraw_from_venue`,
      typeArguments: [USDC],
      arguments: [
        tx.sharedObjectRef({ ...router, mutable: true }),
        tx.pure.u64(7_000_000n),
        tx.pure.address('0x5'),
        tx.pure.vector('u8', [9, 8, 7]),
      ],
    });
    tx.transferObjects([coin], sender);
    tx.moveCall({ target: `${PACKAGE}::other::call`, arguments: [tx.pure.u16(513)] });
    const bytes = await tx.build();

    // Digest and sender default to the bytes'; a test cannot record them for someone else.
    const digest = fake.recordTransaction({ transaction: bytes, status: 'failure' });
    expect(digest).toBe(TransactionDataBuilder.getDigestFromBytes(bytes));
    expect(() =>
      fake.recordTransaction({ transaction: bytes, sender: `0x${'1'.repeat(64)}` }),
    ).toThrow(/differs from the sender/);

    const response = await client.getTransactionBlock({
      digest,
      options: { showInput: true, showEffects: true },
    });
    expect(response.effects?.status.status).toBe('failure');
    const data = response.transaction?.data;
    expect(data?.sender).toBe(sender);
    expect(data?.transaction).toEqual({
      kind: 'ProgrammableTransaction',
      inputs: [
        {
          type: 'object',
          objectType: 'sharedObject',
          objectId: router.objectId,
          initialSharedVersion: router.initialSharedVersion,
          mutable: true,
        },
        { type: 'pure', valueType: 'u64', value: '7000000' },
        { type: 'pure', valueType: 'address', value: normalizeSuiAddress('0x5') },
        { type: 'pure', valueType: 'vector<u8>', value: [9, 8, 7] },
        { type: 'pure', valueType: 'address', value: sender },
        // Passed to a function the fake was not told about: raw BCS, as a node prints it.
        { type: 'pure', valueType: null, value: [1, 2] },
      ],
      transactions: [
        {
          MoveCall: {
            package: PACKAGE,
            module: 'router',
            function: 'withdraw_from_venue',
            type_arguments: [USDC],
            arguments: [{ Input: 0 }, { Input: 1 }, { Input: 2 }, { Input: 3 }],
          },
        },
        { TransferObjects: [[{ Result: 0 }], { Input: 4 }] },
        {
          MoveCall: {
            package: PACKAGE,
            module: 'other',
            function: 'call',
            type_arguments: [],
            arguments: [{ Input: 5 }],
          },
        },
      ],
    });
  });

  it('answers an unknown digest the way a full node does', async () => {
    const unknown = toBase58(new Uint8Array(32).fill(7));
    const error = await client.getTransactionBlock({ digest: unknown }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: -32602,
      message: `Could not find the referenced transaction [TransactionDigest(${unknown})].`,
    });
  });

  it('advances checkpoints and reports chain facts', async () => {
    const before = BigInt(await client.getLatestCheckpointSequenceNumber());
    fake.recordTransaction({ sender: `0x${'1'.repeat(64)}` });
    expect(BigInt(await client.getLatestCheckpointSequenceNumber())).toBe(before + 1n);
    expect(await client.getReferenceGasPrice()).toBe(1000n);
    expect(await client.getChainIdentifier()).toBe(fake.chainIdentifier);
    expect(await client.call('sui_getChainIdentifier', [])).toBe(fake.chainIdentifier);
  });
});

describe('sui_executeTransactionBlock', () => {
  async function signedTransfer(signer: Ed25519Keypair, sender = signer.toSuiAddress()) {
    const gas = fake.setBalance(sender, '0x2::sui::SUI', 1_000_000_000n);
    const coin = fake.setBalance(sender, USDC, 5_000_000n);
    const router = fake.addSharedObject({ type: `${PACKAGE}::router::YieldRouter` });
    if (!gas || !coin) throw new Error('setup');
    const tx = new Transaction();
    tx.setSender(sender);
    tx.setGasPayment([gas]);
    tx.setGasPrice(1000n);
    tx.setGasBudget(10_000_000n);
    tx.moveCall({
      target: `${PACKAGE}::router::deposit`,
      typeArguments: [USDC],
      arguments: [
        tx.sharedObjectRef({ ...router, mutable: true }),
        tx.objectRef(coin),
        tx.pure.vector('u8', [1, 2, 3]),
      ],
    });
    const bytes = await tx.build();
    const { signature } = await signer.signTransaction(bytes);
    return { bytes, signature, gas, coin };
  }

  it('accepts owner-signed bytes, records them and returns the real digest', async () => {
    const signer = new Ed25519Keypair();
    const { bytes, signature, gas } = await signedTransfer(signer);
    const response = await client.executeTransactionBlock({
      transactionBlock: bytes,
      signature,
      options: { showEffects: true, showInput: true },
    });
    expect(response.digest).toBe(TransactionDataBuilder.getDigestFromBytes(bytes));
    expect(response.checkpoint).toBeUndefined();
    expect(response.effects?.status.status).toBe('success');
    const data = response.transaction?.data;
    expect(data?.sender).toBe(signer.toSuiAddress());
    expect(data?.transaction).toMatchObject({
      kind: 'ProgrammableTransaction',
      transactions: [{ MoveCall: { package: PACKAGE, module: 'router', function: 'deposit' } }],
    });
    expect(fake.getTransaction(response.digest)?.signatures).toEqual([signature]);
    expect(fake.getObjectRef(gas.objectId)?.version).not.toBe(gas.version);

    const again = await client.executeTransactionBlock({ transactionBlock: bytes, signature });
    expect(again.digest).toBe(response.digest);

    const read = await client.getTransactionBlock({
      digest: response.digest,
      options: { showRawInput: true },
    });
    const raw = bcs.SenderSignedData.parse(fromBase64(read.rawTransaction ?? ''));
    expect(raw[0]?.txSignatures).toEqual([signature]);
    expect(raw[0]?.intentMessage.value.V1?.sender).toBe(signer.toSuiAddress());
  });

  it('refuses a signature that is not over these bytes', async () => {
    const signer = new Ed25519Keypair();
    const { bytes } = await signedTransfer(signer);
    const { signature: other } = await signer.signTransaction(new Uint8Array([1, 2, 3]));
    const error = await client
      .executeTransactionBlock({ transactionBlock: bytes, signature: other })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32002 });
    expect((error as Error).message).toMatch(/Invalid user signature/);
  });

  it('refuses bytes signed by someone other than the sender', async () => {
    const owner = new Ed25519Keypair();
    const stranger = new Ed25519Keypair();
    const { bytes } = await signedTransfer(owner);
    const { signature } = await stranger.signTransaction(bytes);
    const error = await client
      .executeTransactionBlock({ transactionBlock: bytes, signature })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      `Required Signature from ${normalizeSuiAddress(owner.toSuiAddress())} is absent`,
    );
  });

  it('refuses inputs at a stale version', async () => {
    const signer = new Ed25519Keypair();
    const first = await signedTransfer(signer);
    await client.executeTransactionBlock({
      transactionBlock: first.bytes,
      signature: first.signature,
    });
    const tx = new Transaction();
    tx.setSender(signer.toSuiAddress());
    tx.setGasPayment([first.gas]);
    tx.setGasPrice(1000n);
    tx.setGasBudget(10_000_000n);
    tx.transferObjects([tx.objectRef(first.coin)], signer.toSuiAddress());
    const bytes = await tx.build();
    const { signature } = await signer.signTransaction(bytes);
    const error = await client
      .executeTransactionBlock({ transactionBlock: bytes, signature })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32002 });
    expect((error as Error).message).toMatch(/is not available for consumption/);
  });
});

describe('JSON-RPC envelope', () => {
  it('echoes request ids, answers batches and refuses unknown methods with -32601', async () => {
    expect(
      await rawCall({ jsonrpc: '2.0', id: 'abc', method: 'suix_getReferenceGasPrice' }),
    ).toEqual({ jsonrpc: '2.0', id: 'abc', result: '1000' });
    expect(await rawCall({ jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] })).toEqual(
      { jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } },
    );
    const batch = await rawCall([
      { jsonrpc: '2.0', id: 1, method: 'sui_getChainIdentifier', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'suix_getReferenceGasPrice', params: [] },
    ]);
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 1, result: fake.chainIdentifier },
      { jsonrpc: '2.0', id: 2, result: '1000' },
    ]);
  });

  it('answers a body that is not JSON with -32700 and bad params with -32602', async () => {
    expect(await rawCall('{nope')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(
      await rawCall({ jsonrpc: '2.0', id: 1, method: 'suix_getBalance', params: ['alice'] }),
    ).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(fake.calls()).toContain('suix_getBalance');
  });
});
