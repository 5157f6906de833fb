import { erc20Abi } from 'viem';
import type { Address } from 'viem';
import type { LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed, IrisFake } from '@yieldrouter/chain-beds/bridges';
import type { BridgeRail } from './bridgeRail';
import { bedClients, cctpBedRail, sendLegs } from './testing/cctpBedRail';

// The CCTP rail against the bed: two anvils standing for Base (domain 6) and Arbitrum (3), the
// CCTP v2 stand-ins on both, and the Iris-shaped attestation fake signing what Base burned.
const owner = anvilAccount(5);
const stranger = anvilAccount(6);
const planId = `plan_${'a1'.repeat(16)}`;
const lane = { sourceChain: 'base', destChain: 'arbitrum' } as const;

let cctp: CctpBed;
let base: EvmBed;
let arbitrum: EvmBed;
let iris: IrisFake;
let rail: BridgeRail;

beforeAll(async () => {
  cctp = await startCctpBed();
  ({ base, arbitrum, iris } = cctp);
  await base.fixtures.mintUsdc(owner.address, 100_000_000n);
  rail = cctpBedRail(cctp);
}, 120_000);
afterAll(async () => {
  await cctp?.stop();
});
afterEach(() => iris.setMode('ok'));

/** The legs of a prepared build. */
function preparedLegs(build: LegBuild): readonly UnsignedLeg[] {
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build.blockers));
  return build.legs;
}

function onlyLeg(build: LegBuild): UnsignedLeg {
  const [leg] = preparedLegs(build);
  if (!leg) throw new Error('no leg');
  return leg;
}

const send = sendLegs;

const usdcOf = (bed: EvmBed, chainId: number, who: Address) =>
  bedClients(bed, chainId, owner.privateKey).reader.readContract({
    address: bed.fixtures.usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [who],
  });

async function burn(amountMicros: bigint) {
  const quote = await rail.quote(lane, amountMicros, 'standard');
  if (quote.status !== 'ok') throw new Error(`quote ${quote.status}`);
  const allowance = await rail.readAllowance(lane, owner.address);
  if (typeof allowance !== 'bigint') throw new Error('allowance unreadable');
  const legs = preparedLegs(
    await rail.buildBurn({
      planId,
      lane,
      owner: owner.address,
      recipient: owner.address,
      amountMicros,
      railFeeMicros: quote.railFeeMicros,
      minFinalityThreshold: quote.minFinalityThreshold,
      allowance,
    }),
  );
  return send(base, 8453, legs, owner.privateKey);
}

describe('createCctpRail on the two anvils', () => {
  it('burns on Base, reads the attestation, mints on Arbitrum, proves the mint', async () => {
    expect(rail.lanes).toEqual([
      { sourceChain: 'base', destChain: 'arbitrum' },
      { sourceChain: 'arbitrum', destChain: 'base' },
    ]);
    expect(rail.supports({ sourceChain: 'base', destChain: 'solana' })).toBe(false);
    const quote = await rail.quote(lane, 25_000_000n, 'standard');
    expect(quote).toMatchObject({ status: 'ok', railFeeMicros: 0n, minFinalityThreshold: 2000 });
    expect(await rail.quote(lane, 25_000_000n, 'fast')).toMatchObject({
      status: 'ok',
      railFeeMicros: 2_500n,
      minFinalityThreshold: 1000,
    });

    const before = await usdcOf(base, 8453, owner.address);
    const burnTx = await burn(25_000_000n);
    expect(before - (await usdcOf(base, 8453, owner.address))).toBe(25_000_000n);
    const burned = await rail.readBurn({ lane, planId, owner: owner.address, txId: burnTx });
    expect(burned).toMatchObject({
      status: 'confirmed',
      amountMicros: 25_000_000n,
      destinationDomain: 3,
      mintRecipient: owner.address,
    });
    const other = await rail.readBurn({
      lane,
      planId: `plan_${'b2'.repeat(16)}`,
      owner: owner.address,
      txId: burnTx,
    });
    expect(other.status).toBe('mismatch');

    const attested = await rail.readAttestation(lane, burnTx);
    if (attested.status !== 'complete') throw new Error(`attestation ${attested.status}`);
    const mint = onlyLeg(
      await rail.buildMint({
        planId,
        lane,
        owner: owner.address,
        amountMicros: 25_000_000n,
        message: attested.message,
        attestation: attested.attestation,
      }),
    );
    // Not received yet: the destination has no transaction for the message.
    expect(await rail.findMint?.({ lane, nonce: attested.nonce })).toEqual({
      status: 'not_found',
    });
    const arbBefore = await usdcOf(arbitrum, 42161, owner.address);
    // Anyone may relay the message; the mint still credits the recipient the burn named.
    const mintTx = await send(arbitrum, 42161, [mint], stranger.privateKey);
    expect((await usdcOf(arbitrum, 42161, owner.address)) - arbBefore).toBe(25_000_000n);
    // Whoever relayed it, the watch finds the transaction by the message's nonce.
    expect(await rail.findMint?.({ lane, nonce: attested.nonce })).toEqual({
      status: 'found',
      txId: mintTx.toLowerCase(),
    });
    expect(
      await rail.readMint({ lane, txId: mintTx, nonce: attested.nonce, recipient: owner.address }),
    ).toMatchObject({ status: 'confirmed', amountMicros: 25_000_000n, feeMicros: 0n });
    expect(
      await rail.readMint({
        lane,
        txId: mintTx,
        nonce: attested.nonce,
        recipient: stranger.address,
      }),
    ).toMatchObject({ status: 'mismatch' });
    expect(
      await rail.readMint({
        lane,
        txId: mintTx,
        nonce: `0x${'00'.repeat(32)}`,
        recipient: owner.address,
      }),
    ).toMatchObject({ status: 'mismatch' });
    // The same message cannot mint twice.
    await expect(send(arbitrum, 42161, [mint], stranger.privateKey)).rejects.toThrow();
  });

  it('fails closed: pending forever, 503 and garbage from the attestation service', async () => {
    const burnTx = await burn(2_000_000n);
    iris.setMode('pending');
    expect(await rail.readAttestation(lane, burnTx)).toMatchObject({ status: 'pending' });
    iris.setMode('http_503');
    expect(await rail.readAttestation(lane, burnTx)).toMatchObject({ status: 'unavailable' });
    // The lane's fee read by an earlier plan is kept (no request); a lane not read yet fails
    // closed.
    const feeReads = iris.counts().fees;
    expect(await rail.quote(lane, 2_000_000n, 'standard')).toMatchObject({ status: 'ok' });
    expect(iris.counts().fees).toBe(feeReads);
    const back = { sourceChain: 'arbitrum', destChain: 'base' } as const;
    expect(await rail.quote(back, 2_000_000n, 'standard')).toMatchObject({
      status: 'unavailable',
      detail: 'the fee endpoint answered 503',
    });
    iris.setMode('malformed');
    expect(await rail.readAttestation(lane, burnTx)).toMatchObject({ status: 'unavailable' });
    iris.setMode('ok');
    const unknown = `0x${'ab'.repeat(32)}`;
    expect(await rail.readAttestation(lane, unknown)).toMatchObject({ status: 'pending' });
  });

  it('a forged attestation does not mint', async () => {
    const burnTx = await burn(3_000_000n);
    const attested = await rail.readAttestation(lane, burnTx);
    if (attested.status !== 'complete') throw new Error('not attested');
    const forged = `${attested.message.slice(0, -2)}ff`;
    const mint = onlyLeg(
      await rail.buildMint({
        planId,
        lane,
        owner: owner.address,
        amountMicros: 3_000_000n,
        message: forged,
        attestation: attested.attestation,
      }),
    );
    await expect(send(arbitrum, 42161, [mint], owner.privateKey)).rejects.toThrow();
  });
});
