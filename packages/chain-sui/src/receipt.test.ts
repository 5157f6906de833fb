import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake, SuiFakeEvent } from '@yieldrouter/chain-beds/sui';
import { startGarbageServer, startSilentServer } from '@yieldrouter/chain-beds/faults';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { toBase58 } from '@mysten/sui/utils';
import type { LegRequest, ReceiptQuery } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import type { SuiAdapterConfig } from './config';
import {
  legBytes,
  legRequest,
  OTHER_PLAN_ID,
  PACKAGE_ID,
  PLAN_ID,
  RESOLVED_REFS,
  ROUTER_ID,
  suiConfig,
  USDC,
  VENUE,
} from './testFixtures';

const OWNER = new Ed25519Keypair().toSuiAddress();
const STRANGER = new Ed25519Keypair().toSuiAddress();

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

/** The event our router package emits (as Sui prints it: vector<u8> as numbers, u64 as text). */
function routerEvent(
  name: string,
  amount: bigint,
  extra: Record<string, unknown> = {},
  planId = PLAN_ID,
) {
  return {
    type: `${PACKAGE_ID}::router::${name}`,
    parsedJson: {
      plan_id: [...planIdToBytes(planId)],
      owner: OWNER,
      amount: amount.toString(),
      ...extra,
    },
  } satisfies SuiFakeEvent;
}

function query(txId: string, overrides: Partial<ReceiptQuery> = {}): ReceiptQuery {
  return {
    txId,
    planId: PLAN_ID,
    owner: OWNER,
    action: 'deposit',
    target: { kind: 'router' },
    ...overrides,
  };
}

function adapter(overrides: Partial<SuiAdapterConfig> = {}) {
  return createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl, ...overrides }));
}

describe('readReceipt from recorded effects', () => {
  it('confirms a deposit with the amount from the balance change and the checkpoint', async () => {
    const digest = fake.recordTransaction({
      sender: OWNER,
      checkpoint: 4242n,
      events: [routerEvent('Deposited', 12_500_000n)],
      balanceChanges: [
        { owner: OWNER, coinType: '0x2::sui::SUI', amount: -1_997_880n },
        { owner: OWNER, coinType: USDC, amount: -12_500_000n },
        { owner: ROUTER_ID, coinType: USDC, amount: 12_500_000n },
      ],
    });
    expect(await adapter().readReceipt(query(digest))).toEqual({
      status: 'confirmed',
      txId: digest,
      planId: PLAN_ID,
      amountMicros: 12_500_000n,
      shares: null,
      block: '4242',
    });
  });

  it('confirms a withdrawal (positive USDC change for the owner)', async () => {
    const digest = fake.recordTransaction({
      sender: OWNER,
      events: [routerEvent('Withdrawn', 3_000_001n)],
      balanceChanges: [{ owner: OWNER, coinType: USDC, amount: 3_000_001n }],
    });
    const receipt = await adapter().readReceipt(query(digest, { action: 'withdraw' }));
    expect(receipt).toMatchObject({ status: 'confirmed', amountMicros: 3_000_001n });
  });

  it('is a mismatch for another plan, another owner, another action or another package', async () => {
    const digest = fake.recordTransaction({
      sender: OWNER,
      events: [routerEvent('Deposited', 5n)],
      balanceChanges: [{ owner: OWNER, coinType: USDC, amount: -5n }],
    });
    const receipts = await Promise.all([
      adapter().readReceipt(query(digest, { planId: OTHER_PLAN_ID })),
      adapter().readReceipt(query(digest, { owner: STRANGER })),
      adapter().readReceipt(query(digest, { action: 'withdraw' })),
      createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl, packageId: ROUTER_ID })).readReceipt(
        query(digest),
      ),
    ]);
    expect(receipts.map((receipt) => receipt.status)).toEqual([
      'mismatch',
      'mismatch',
      'mismatch',
      'mismatch',
    ]);
    expect(receipts[0]).toMatchObject({ reason: 'no Deposited event for this plan' });
  });

  it('is a mismatch when the USDC that moved disagrees with the event', async () => {
    const digest = fake.recordTransaction({
      sender: OWNER,
      events: [routerEvent('Deposited', 5_000_000n)],
      balanceChanges: [{ owner: OWNER, coinType: USDC, amount: -1n }],
    });
    expect(await adapter().readReceipt(query(digest))).toMatchObject({
      status: 'mismatch',
      reason: "the owner's USDC change (1) differs from the router event (5000000)",
    });
    const noChange = fake.recordTransaction({
      sender: OWNER,
      events: [routerEvent('Deposited', 5n)],
    });
    expect(await adapter().readReceipt(query(noChange))).toMatchObject({ status: 'mismatch' });
  });

  it('is pending for a digest the node does not know', async () => {
    const digest = toBase58(new Uint8Array(32).fill(3));
    expect(await adapter().readReceipt(query(digest))).toEqual({ status: 'pending', txId: digest });
  });

  it('refuses a txId that is not a Sui digest, and a bad owner', async () => {
    for (const [txId, owner, field] of [
      ['0xabc', OWNER, 'txId'],
      [toBase58(new Uint8Array(31).fill(1)), OWNER, 'txId'],
      [toBase58(new Uint8Array(32).fill(1)), 'bob', 'owner'],
    ]) {
      const error = await adapter()
        .readReceipt(query(txId ?? '', { owner: owner ?? '' }))
        .catch((e) => e);
      expect(error).toBeInstanceOf(InvalidChainInputError);
      expect(error).toMatchObject({ field });
    }
  });

  it('is unavailable without the package id, the RPC, or an answer', async () => {
    const digest = toBase58(new Uint8Array(32).fill(4));
    const noPackage = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl, packageId: undefined }));
    expect(await noPackage.readReceipt(query(digest))).toMatchObject({
      status: 'unavailable',
      reason: 'no_standard_reader',
    });
    expect(await createSuiAdapter(suiConfig()).readReceipt(query(digest))).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_not_configured',
    });
    const silent = await startSilentServer();
    const garbage = await startGarbageServer('{"jsonrpc":"2.0","id":1,"result":{"digest":1}}');
    try {
      const slow = createSuiAdapter(suiConfig({ rpcUrl: silent.url, timeoutMs: 200 }));
      expect(await slow.readReceipt(query(digest))).toMatchObject({ reason: 'rpc_timeout' });
      const bad = createSuiAdapter(suiConfig({ rpcUrl: garbage.url }));
      expect(await bad.readReceipt(query(digest))).toMatchObject({ reason: 'rpc_bad_response' });
    } finally {
      await silent.close();
      await garbage.close();
    }
  });
});

describe('readReceipt of a failed transaction', () => {
  const ABORT = 'MoveAbort(MoveLocation { module: router }, 2) in command 1';
  const VENUE_TARGET = { kind: 'venue' as const, venue: VENUE };
  // A package the fake knows no signatures of: it prints the pure inputs as raw BCS.
  const UNTYPED_PACKAGE = `0x${'9a'.repeat(32)}`;

  beforeAll(() => {
    // The router entry points as README.md documents them, so the fake types their pure inputs.
    const router = `${PACKAGE_ID}::router`;
    const yieldRouter = `&mut ${router}::YieldRouter`;
    const registry = `&${router}::AdapterRegistry`;
    const venue = [yieldRouter, registry];
    fake.defineMoveFunction(`${router}::deposit`, [yieldRouter, 'Coin<T>', 'vector<u8>']);
    fake.defineMoveFunction(`${router}::withdraw`, [yieldRouter, 'u64', 'vector<u8>']);
    fake.defineMoveFunction(`${router}::deposit_to_venue`, [
      ...venue,
      'Coin<T>',
      'address',
      'vector<u8>',
    ]);
    fake.defineMoveFunction(`${router}::withdraw_from_venue`, [
      ...venue,
      'u64',
      'address',
      'vector<u8>',
    ]);
  });

  /** Records the leg our adapter builds for `request` as mined and aborted; returns its digest. */
  async function failedLeg(
    request: LegRequest,
    action: 'deposit' | 'withdraw',
    config: Partial<SuiAdapterConfig> = {},
  ): Promise<string> {
    const builder = adapter(config);
    const build =
      action === 'deposit'
        ? await builder.buildDepositBytes(request, RESOLVED_REFS)
        : await builder.buildWithdrawBytes(request, RESOLVED_REFS);
    return fake.recordTransaction({
      transaction: legBytes(build),
      status: 'failure',
      error: ABORT,
    });
  }

  it('reads the plan id and adapter from raw pure inputs when the node cannot type them', async () => {
    const config = { packageId: UNTYPED_PACKAGE };
    const digest = await failedLeg(legRequest(OWNER, { target: VENUE_TARGET }), 'deposit', config);
    const receipt = await adapter(config).readReceipt(query(digest, { target: VENUE_TARGET }));
    expect(receipt).toMatchObject({ status: 'failed', reason: ABORT });
  });
});
