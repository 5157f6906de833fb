import type { PreparedLeg, UnsignedLeg } from '@yieldrouter/schemas';
import { keccak256 } from 'viem';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createEvmAdapter } from './createEvmAdapter';

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const VAULT = '0x1111111111111111111111111111111111111111';
const PLAN = 'plan_00112233445566778899aabbccddeeff';

// Offline: legs are built and checked without an RPC.
const adapter = createEvmAdapter({
  chain: 'base',
  rpcUrl: undefined,
  timeoutMs: 1_000,
  usdcAddress: USDC,
  registryAddress: undefined,
});
const owner = privateKeyToAccount(generatePrivateKey());

async function legs(amountMicros = 5_000_000n): Promise<readonly UnsignedLeg[]> {
  const build = await adapter.buildDeposit({
    planId: PLAN,
    owner: owner.address,
    amountMicros,
    target: {
      kind: 'venue',
      venue: { venueId: 'v', chain: 'base', standard: 'erc4626', ids: { vault: VAULT } },
    },
  });
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
  return build.legs;
}

const prepared = (leg: UnsignedLeg): PreparedLeg => ({
  planId: PLAN,
  owner: owner.address,
  payload: leg.payload,
});

/** What the owner's wallet does with a prepared request: add gas and a nonce, then sign. */
async function sign(leg: UnsignedLeg, account = owner): Promise<Hex> {
  if (leg.payload.encoding !== 'evm-transaction-request') throw new Error('not EVM');
  const request = leg.payload.transaction;
  return account.signTransaction({
    chainId: request.chainId,
    to: request.to as Hex,
    data: request.data as Hex,
    value: BigInt(request.value),
    nonce: 3,
    gas: 200_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000n,
  });
}

describe('checkSignedLeg (EVM)', () => {
  it('accepts the prepared request signed by the owner; the txId is the hash of the bytes', async () => {
    const [approve, deposit] = await legs();
    for (const leg of [approve, deposit]) {
      if (!leg) throw new Error('missing leg');
      const raw = await sign(leg);
      expect(await adapter.checkSignedLeg({ transaction: raw }, prepared(leg))).toEqual({
        status: 'ok',
        txId: keccak256(raw),
      });
    }
  });

  it('refuses another leg, another amount or another signer', async () => {
    const [approve, deposit] = await legs();
    const [, larger] = await legs(6_000_000n);
    if (!approve || !deposit || !larger) throw new Error('missing leg');
    const check = (raw: Hex) => adapter.checkSignedLeg({ transaction: raw }, prepared(deposit));
    expect(await check(await sign(approve))).toMatchObject({ status: 'mismatch' });
    expect(await check(await sign(larger))).toMatchObject({ status: 'mismatch' });
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect(await check(await sign(deposit, stranger))).toEqual({
      status: 'mismatch',
      reason: expect.stringContaining('not the plan owner'),
    });
  });

  it('throws InvalidChainInputError for bytes that are not a signed EVM transaction', async () => {
    const [leg] = await legs();
    if (!leg) throw new Error('missing leg');
    for (const transaction of ['', '0x', 'zz', '0x02f8', Buffer.from('x').toString('base64')]) {
      await expect(adapter.checkSignedLeg({ transaction }, prepared(leg))).rejects.toMatchObject({
        name: 'InvalidChainInputError',
        field: 'transaction',
      });
    }
  });
});
