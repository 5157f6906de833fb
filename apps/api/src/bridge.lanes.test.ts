import request from 'supertest';
import { Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { decodeFunctionData, pad } from 'viem';
import type { Hex } from 'viem';
import { anvilAccounts } from '@yieldrouter/chain-beds/evm';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp, testKeys } from './testing/startTestApp';
import { CCTP_BURN_ABI, startCctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';
import type { CctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';

// Lanes to and from Solana and Sui: Base (an anvil with the CCTP v2 stand-ins) → Solana, and
// Solana (the litesvm bed, for the blockhash) → Sui, prepared when configured; the owner key
// sent names the addresses that are the owner's on each chain.
const owner = anvilAccounts()[4];
if (!owner) throw new Error('no anvil account');
const solanaWallet = Keypair.generate();
const solanaOwner = solanaWallet.publicKey.toBase58();
const solanaFeeRecipient = Keypair.generate().publicKey;
const suiOwner = SAMPLE_ADDRESSES.sui;
const ownerKey = `test-owner-lanes-${Date.now()}`;
const DEPOSIT_FOR_BURN = [215, 60, 61, 46, 114, 55, 128, 176];
const burnAbi = CCTP_BURN_ABI;

let beds: CctpSolanaSuiBeds;
let solana: SolanaBed;
let t: TestApp;

beforeAll(async () => {
  beds = await startCctpSolanaSuiBeds(solanaFeeRecipient.toBase58());
  solana = beds.solana;
  t = await startTestApp({
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: [owner.address, solanaOwner, suiOwner] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
    ...beds.settings,
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await beds?.stop();
});

const plan = (body: Record<string, unknown>, key = ownerKey) => {
  const call = request(t.app).post('/api/v1/svc/bridge/plan');
  return (key ? call.set('X-API-Key', key) : call).send(body);
};
const baseToSolana = {
  sourceChain: 'base',
  destChain: 'solana',
  amountMicros: '25000000',
  sourceAddress: owner.address,
  destinationAddress: solanaOwner,
};
const lanesOf = (body: { supportedLanes?: { sourceChain: string; destChain: string }[] }) =>
  (body.supportedLanes ?? []).map((lane) => `${lane.sourceChain}→${lane.destChain}`).sort();

describe('POST /svc/bridge/plan to and from Solana and Sui', () => {
  it("Base → Solana: the burn mints to the owner's USDC token account on domain 5", async () => {
    const res = await plan(baseToSolana);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'prepared',
      kind: 'bridge',
      sourceChain: 'base',
      destChain: 'solana',
      destinationAddress: solanaOwner,
      bridgeStatus: 'awaiting_burn',
      disclosure: { refundTo: owner.address },
    });
    const legs = res.body.legs as { action: string; transaction: { to: string; data: Hex } }[];
    expect(legs.map((leg) => leg.action)).toEqual(['transfer', 'approve', 'burn']);
    const burn = legs[2];
    if (!burn) throw new Error('no burn');
    const { args } = decodeFunctionData({ abi: burnAbi, data: burn.transaction.data });
    // The owner's associated token account: seeds [owner, token program, mint] of the ATA program.
    const [account] = PublicKey.findProgramAddressSync(
      [
        new PublicKey(solanaOwner).toBuffer(),
        new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA').toBuffer(),
        new PublicKey(solana.usdcMint).toBuffer(),
      ],
      new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'),
    );
    expect(args[1]).toBe(5);
    expect(args[2]).toBe(`0x${account.toBuffer().toString('hex')}`);
    expect(args[2]).not.toBe(pad(owner.address));
  });

  it('Solana → Sui: one Solana leg with deposit_for_burn towards domain 8 and the Sui address', async () => {
    const res = await plan({
      sourceChain: 'solana',
      destChain: 'sui',
      amountMicros: '10000000',
      sourceAddress: solanaOwner,
      destinationAddress: suiOwner,
    });
    expect(res.body.message).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'prepared', sourceChain: 'solana', destChain: 'sui' });
    const legs = res.body.legs as { action: string; encoding: string; transaction: string }[];
    expect(legs.map((leg) => [leg.action, leg.encoding])).toEqual([['burn', 'solana-v0-base64']]);
    const tx = VersionedTransaction.deserialize(Buffer.from(legs[0]?.transaction ?? '', 'base64'));
    const keys = tx.message.staticAccountKeys;
    expect(keys[0]?.toBase58()).toBe(solanaOwner);
    const burn = tx.message.compiledInstructions.find(
      (ix) => keys[ix.programIdIndex]?.toBase58() === beds.onSolana.tokenMessengerMinter,
    );
    if (!burn) throw new Error('no deposit_for_burn');
    const data = Buffer.from(burn.data);
    expect([...data.subarray(0, 8)]).toEqual(DEPOSIT_FOR_BURN);
    expect(data.readUInt32LE(16)).toBe(8);
    expect(`0x${data.subarray(20, 52).toString('hex')}`).toBe(suiOwner);
    // CCTP on Sui is standard only and keeps no fee: the rail fee line is 0.
    expect(res.body.feeLines).toContainEqual(
      expect.objectContaining({ kind: 'rail_fee', amountMicros: '0' }),
    );
  });

  it('Solana → Sui: the signed burn settles from its receipt into in_flight on Solana, never Sui', async () => {
    // The Solana stand-ins link Base only (no Sui bed runs): the owner-signed burn towards Sui is
    // laid down with what it did to the USDC accounts (the fee to the service, the burn out of
    // the supply).
    solana.airdrop(solanaWallet.publicKey, 1_000_000_000n);
    const ownerUsdc = solana.mintUsdc(solanaWallet.publicKey, 30_000_000n).toBase58();
    const feeUsdc = solana.mintUsdc(solanaFeeRecipient, 1n).toBase58();
    const res = await plan({
      sourceChain: 'solana',
      destChain: 'sui',
      amountMicros: '10000000',
      sourceAddress: solanaOwner,
      destinationAddress: suiOwner,
    }).expect(200);
    const burnMicros = BigInt(res.body.burnAmountMicros as string);
    const feeMicros = 10_000_000n - burnMicros;
    const [leg] = res.body.legs as { index: number; transaction: string }[];
    if (!leg) throw new Error('no burn leg');
    const tx = VersionedTransaction.deserialize(Buffer.from(leg.transaction, 'base64'));
    tx.sign([solanaWallet]);
    const landed = solana.record(tx, {
      tokenDeltas: { [ownerUsdc]: -(burnMicros + feeMicros), [feeUsdc]: feeMicros },
    });
    const settled = await request(t.app)
      .post(`/api/v1/svc/plans/${res.body.planId as string}/legs/${leg.index}/settle`)
      .set('X-API-Key', testKeys.keeper)
      .send({ txId: landed.signature });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ status: 'confirmed' });
    const bucket = (chain: string, name: string) =>
      t.db.ledgerAccount.findFirst({ where: { wallet: solanaOwner, chain, bucket: name } });
    expect((await bucket('solana', 'in_flight'))?.balanceMicros).toBe(burnMicros);
    expect(await bucket('sui', 'liquid')).toBeNull();
  });

  it('refuses a destination of another chain family the owner key does not list', async () => {
    const stranger = Keypair.generate().publicKey.toBase58();
    const anonymous = await plan(baseToSolana, '');
    expect(anonymous.status).toBe(422);
    expect(anonymous.body).toMatchObject({
      code: 'BRIDGE_DESTINATION_NOT_OWNER',
      field: 'body.destinationAddress',
    });
    const other = await plan({ ...baseToSolana, destinationAddress: stranger });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('BRIDGE_DESTINATION_NOT_OWNER');
  });

  it('blocks a lane whose end is not configured, listing only the configured lanes', async () => {
    const res = await plan({ ...baseToSolana, sourceChain: 'arbitrum' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('blocked');
    expect(res.body.blockers).toContainEqual(
      expect.objectContaining({ code: 'bridge_lane_unsupported' }),
    );
    expect(lanesOf(res.body)).toEqual(
      [
        'arbitrum→base',
        'base→arbitrum',
        'base→solana',
        'base→sui',
        'solana→base',
        'solana→sui',
        'sui→base',
        'sui→solana',
      ].sort(),
    );
  });
});
