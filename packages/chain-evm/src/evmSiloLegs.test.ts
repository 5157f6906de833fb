import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { newPlanId } from '@yieldrouter/schemas';
import type { VenueOnChain } from '@yieldrouter/schemas';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';
import { last, ownerWallet, useTestVenueBed, venueTarget } from './testVenueBed';

// A Silo v2 market on anvil: the venue names only its SiloConfig (as the mainnet profile does);
// the adapter reads getSilos() and takes the silo whose asset() is USDC, and the ERC-4626 legs
// go there. The bed's market is TestSiloConfig over silo0 (WETH stand-in) and silo1 (USDC). The
// bed is Base-like (chain id 8453), so the venue says `base`; the catalog's Silo is on Arbitrum.

const bed = useTestVenueBed();

/** The bed's adapter as seen through another RPC or with another USDC. */
function adapterWith(rpcUrl: string | undefined, usdc = bed.fixtures.usdc) {
  return createEvmAdapter({
    chain: 'base',
    rpcUrl,
    timeoutMs: 1_000,
    usdcAddress: usdc,
    registryAddress: bed.fixtures.registry,
  });
}

function silo(ids: Record<string, string>): VenueOnChain {
  return { venueId: 'silo', chain: 'base', standard: 'erc4626', ids };
}

function request(venue: VenueOnChain, owner: string, amountMicros: bigint) {
  return { planId: newPlanId(), owner, amountMicros, target: venueTarget(venue) };
}

function legTargets(build: Awaited<ReturnType<EvmChainAdapter['buildDeposit']>>) {
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build.blockers));
  return build.legs.map((leg) =>
    leg.payload.encoding === 'evm-transaction-request' ? leg.payload.transaction.to : undefined,
  );
}

describe('Silo v2 market on anvil', () => {
  it('deposit → accrue → withdraw all through the USDC silo found on chain; books clean', async () => {
    const market = silo({ siloConfig: bed.fixtures.siloConfig });
    const owner = ownerWallet(bed.anvil, 3);
    await bed.fixtures.mintUsdc(owner.address, 10_000_000n);

    const deposit = request(market, owner.address, 10_000_000n);
    const depositBuild = await bed.adapter.buildDeposit(deposit);
    expect(legTargets(depositBuild)).toEqual([bed.fixtures.usdc, bed.fixtures.silo1]);
    const depositTx = last(await owner.send(depositBuild));
    const deposited = await bed.adapter.readReceipt({
      ...deposit,
      txId: depositTx,
      action: 'deposit',
    });
    expect(deposited).toMatchObject({
      status: 'confirmed',
      amountMicros: 10_000_000n,
      shares: 10_000_000n,
    });
    if (deposited.status !== 'confirmed') throw new Error('unreachable');
    const booked = deposited.shares;

    // Interest accrues to the silo: the booked shares are worth more.
    await bed.fixtures.simulateSiloYield(1_000_000n);
    const accrued = await bed.adapter.readPosition(market, owner.address, booked ?? 0n);
    expect(accrued).toMatchObject({ status: 'ok', ownerShares: booked });
    if (accrued.status !== 'ok') throw new Error(JSON.stringify(accrued));
    expect(accrued.ownerValueMicros).toBe(10_999_999n);
    expect(accrued.sharesValueMicros).toBe(accrued.ownerValueMicros);

    const withdraw = request(market, owner.address, accrued.ownerValueMicros);
    const withdrawTx = last(await owner.send(await bed.adapter.buildWithdraw(withdraw)));
    expect(
      await bed.adapter.readReceipt({ ...withdraw, txId: withdrawTx, action: 'withdraw' }),
    ).toMatchObject({
      status: 'confirmed',
      amountMicros: 10_999_999n,
      shares: booked,
    });
    // Every booked share redeemed, the owner holds deposit + interest, nothing left behind.
    expect(await bed.adapter.readPosition(market, owner.address, 0n)).toMatchObject({
      status: 'ok',
      ownerShares: 0n,
      ownerValueMicros: 0n,
    });
    const [, usdc] = await bed.adapter.readBalances(owner.address);
    expect(usdc).toMatchObject({ status: 'ok', amount: 10_999_999n });
  });

  it('a configured vault that is the USDC silo is used; another silo is refused', async () => {
    const owner = ownerWallet(bed.anvil, 4).address;
    const right = silo({ siloConfig: bed.fixtures.siloConfig, vault: bed.fixtures.silo1 });
    expect(legTargets(await bed.adapter.buildDeposit(request(right, owner, 1_000_000n)))).toEqual([
      bed.fixtures.usdc,
      bed.fixtures.silo1,
    ]);

    const wrong = silo({ siloConfig: bed.fixtures.siloConfig, vault: bed.fixtures.silo0 });
    for (const build of [
      await bed.adapter.buildDeposit(request(wrong, owner, 1_000_000n)),
      await bed.adapter.buildWithdraw(request(wrong, owner, 1_000_000n)),
    ]) {
      expect(build).toEqual({
        status: 'blocked',
        blockers: [
          expect.objectContaining({
            code: 'venue_not_configured',
            field: 'venue.ids.vault',
            message: expect.stringContaining(`is not the USDC silo of SiloConfig`),
          }),
        ],
      });
    }
    expect(await bed.adapter.readPosition(wrong, owner, 1n)).toMatchObject({
      status: 'unavailable',
      reason: 'asset_not_configured',
    });
  });

  it('a market without a USDC silo, or no siloConfig, is refused naming the id', async () => {
    const owner = ownerWallet(bed.anvil, 4).address;
    // Seen by a chain whose USDC is neither silo's asset, the bed's market has no USDC silo.
    const otherUsdc = adapterWith(bed.anvil.rpcUrl, bed.fixtures.pair);
    const market = silo({ siloConfig: bed.fixtures.siloConfig });
    expect(await otherUsdc.buildDeposit(request(market, owner, 1_000_000n))).toMatchObject({
      status: 'blocked',
      blockers: [
        {
          code: 'venue_not_configured',
          field: 'venue.ids.siloConfig',
          message: expect.stringContaining('has no USDC silo'),
        },
      ],
    });
    const noConfig = silo({ vault: bed.fixtures.silo1 });
    expect(await bed.adapter.buildDeposit(request(noConfig, owner, 1_000_000n))).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'venue_not_configured', field: 'venue.ids.siloConfig' }],
    });
    const malformed = silo({ siloConfig: '0x1234' });
    expect(await bed.adapter.buildDeposit(request(malformed, owner, 1_000_000n))).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'venue_not_configured', field: 'venue.ids.siloConfig' }],
    });
  });

  it('fails closed when the market cannot be read: rpc_unavailable, never a guessed silo', async () => {
    const owner = ownerWallet(bed.anvil, 4).address;
    for (const rpcUrl of [undefined, await closedPortUrl()]) {
      const offline = adapterWith(rpcUrl);
      const market = silo({ siloConfig: bed.fixtures.siloConfig });
      expect(await offline.buildDeposit(request(market, owner, 1_000_000n))).toMatchObject({
        status: 'blocked',
        blockers: [{ code: 'rpc_unavailable', details: { siloConfig: bed.fixtures.siloConfig } }],
      });
      expect(await offline.readPosition(market, owner, 1n)).toMatchObject({
        status: 'unavailable',
        reason: rpcUrl === undefined ? 'rpc_not_configured' : 'rpc_error',
      });
      // A configured vault stands when the market is unread (the chain refuses a wrong one).
      const configured = silo({ siloConfig: bed.fixtures.siloConfig, vault: bed.fixtures.silo1 });
      expect(
        legTargets(await offline.buildDeposit(request(configured, owner, 1_000_000n))),
      ).toEqual([bed.fixtures.usdc, bed.fixtures.silo1]);
    }
  });
});
