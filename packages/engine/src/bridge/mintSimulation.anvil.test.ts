import type { Address } from 'viem';
import { createEvmAdapter } from '@yieldrouter/chain-evm';
import type { LegBuild, PlanSimulation, UnsignedLeg } from '@yieldrouter/schemas';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { divergentChanges } from '../simulation/legDivergence';
import { legBytesDigest } from '@yieldrouter/verify';
import type { BridgeRail } from './bridgeRail';
import { simulateMintLeg } from './mintSimulation';
import { cctpBedRail, sendLegs } from './testing/cctpBedRail';
import type { MintSimulationAdapters } from './mintSimulation';

// Issue 44 on a bridge's mint, on the CCTP bed (two anvils, the CCTP v2 stand-ins, the Iris
// fake): the mint leg the rail builds from the attestation, run on Arbitrum as its recipient
// (eth_simulateV1), equals what it moves once relayed; a mint leg carrying another burn's
// message (minting to someone else) shows it before anyone signs.
const [owner, stranger, relayer] = [5, 6, 7].map((index) => anvilAccount(index)) as [
  ReturnType<typeof anvilAccount>,
  ReturnType<typeof anvilAccount>,
  ReturnType<typeof anvilAccount>,
];
const planId = `plan_${'c3'.repeat(16)}`;
const lane = { sourceChain: 'base', destChain: 'arbitrum' } as const;

let cctp: CctpBed;
let rail: BridgeRail;
let adapters: MintSimulationAdapters;

beforeAll(async () => {
  cctp = await startCctpBed();
  await cctp.base.fixtures.mintUsdc(owner.address, 50_000_000n);
  await cctp.base.fixtures.mintUsdc(stranger.address, 50_000_000n);
  rail = cctpBedRail(cctp);
  adapters = {
    arbitrum: createEvmAdapter({
      chain: 'arbitrum',
      rpcUrl: cctp.arbitrum.anvil.rpcUrl,
      timeoutMs: 2_000,
      usdcAddress: cctp.arbitrum.fixtures.usdc,
      registryAddress: undefined,
    }),
  };
}, 120_000);
afterAll(async () => {
  await cctp?.stop();
});

function onlyLeg(build: LegBuild): UnsignedLeg {
  const leg = build.status === 'prepared' ? build.legs[0] : undefined;
  if (!leg) throw new Error(JSON.stringify(build));
  return leg;
}

/** `who` burns `amount` on Base towards `recipient` on Arbitrum; the attested message. */
async function attestedBurn(who: typeof owner, recipient: Address, amountMicros: bigint) {
  const allowance = await rail.readAllowance(lane, who.address);
  if (typeof allowance !== 'bigint') throw new Error('allowance unreadable');
  const build = await rail.buildBurn({
    planId,
    lane,
    owner: who.address,
    recipient,
    amountMicros,
    railFeeMicros: 0n,
    minFinalityThreshold: 2000,
    allowance,
  });
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build.blockers));
  const burnTx = await sendLegs(cctp.base, 8453, build.legs, who.privateKey);
  const attested = await rail.readAttestation(lane, burnTx);
  if (attested.status !== 'complete') throw new Error(`attestation ${attested.status}`);
  return attested;
}

const mintLegOf = async (message: string, attestation: string, amountMicros: bigint) =>
  onlyLeg(
    await rail.buildMint({
      planId,
      lane,
      owner: owner.address,
      amountMicros,
      message,
      attestation,
    }),
  );

const simulate = (leg: UnsignedLeg, burned: bigint, on = adapters) =>
  simulateMintLeg({
    adapters: on,
    planId,
    chain: 'arbitrum',
    index: 3,
    recipient: owner.address,
    leg,
    least: burned,
    most: burned,
  });

function simulatedOf(simulation: PlanSimulation) {
  if (simulation.status !== 'simulated') throw new Error(JSON.stringify(simulation));
  return simulation;
}

describe("simulateMintLeg: a bridge's mint on the destination", () => {
  it('honest: simulated as the recipient, it moves exactly that once anyone relays it', async () => {
    const attested = await attestedBurn(owner, owner.address, 4_000_000n);
    const leg = await mintLegOf(attested.message, attested.attestation, 4_000_000n);
    const simulation = simulatedOf(await simulate(leg, 4_000_000n));
    expect(simulation).toMatchObject({
      chain: 'arbitrum',
      method: 'eth_simulateV1',
      findings: [],
      legs: [
        {
          index: 3,
          outcome: 'ok',
          bytesDigest: legBytesDigest(leg.payload),
          changes: [{ account: owner.address, role: 'owner', usdc: true, delta: '4000000' }],
        },
      ],
    });
    const [simulated] = simulation.legs;
    if (!simulated) throw new Error('no leg');
    // The transmitter it calls is the rail's (`venue`), the asset Arbitrum's USDC.
    expect(simulated.calls?.map((call) => call.toLowerCase())).toEqual([
      cctp.contracts.arbitrum.messageTransmitter.toLowerCase(),
    ]);
    expect(simulated.changes[0]?.asset.toLowerCase()).toBe(
      cctp.arbitrum.fixtures.usdc.toLowerCase(),
    );

    const mintTx = await cctp.send(
      'arbitrum',
      leg.payload.transaction as { to: string; data: string },
      relayer.privateKey,
    );
    const landed = await adapters.arbitrum?.readLegChanges?.(mintTx);
    if (landed?.status !== 'ok') throw new Error(JSON.stringify(landed));
    expect(landed.changes.length).toBeGreaterThan(0);
    expect(divergentChanges(simulated.changes, landed.changes, owner.address)).toEqual([]);

    // Once minted, the same leg reverts (the nonce is used): said, never guessed.
    const again = simulatedOf(await simulate(leg, 4_000_000n));
    expect(again.legs[0]?.outcome).toBe('reverted');
    expect(again.findings.map((finding) => finding.code)).toEqual(['reverted']);
  });

  it("another burn's message in the owner's mint leg: the stranger paid, the owner not", async () => {
    const theirs = await attestedBurn(stranger, stranger.address, 3_000_000n);
    // Served as the owner's mint (the owner's 3 USDC bridge), it would mint to the stranger.
    const leg = await mintLegOf(theirs.message, theirs.attestation, 3_000_000n);
    const simulation = simulatedOf(await simulate(leg, 3_000_000n));
    expect(simulation.legs[0]?.changes).toEqual([
      expect.objectContaining({ account: stranger.address, role: 'other', delta: '3000000' }),
    ]);
    expect(simulation.findings.map((finding) => finding.code).sort()).toEqual([
      'owner_amount_mismatch',
      'unexpected_recipient',
    ]);
  });

  it('a destination that cannot be read, or has no simulation: unavailable, never guessed', async () => {
    const attested = await attestedBurn(owner, owner.address, 2_000_000n);
    const leg = await mintLegOf(attested.message, attested.attestation, 2_000_000n);
    expect(await simulate(leg, 2_000_000n, {})).toMatchObject({
      status: 'unavailable',
      reason: 'not_supported',
    });
    const unreachable = createEvmAdapter({
      chain: 'arbitrum',
      rpcUrl: 'http://127.0.0.1:9',
      timeoutMs: 500,
      usdcAddress: cctp.arbitrum.fixtures.usdc,
      registryAddress: undefined,
    });
    const answer = await simulate(leg, 2_000_000n, { arbitrum: unreachable });
    expect(answer.status).toBe('unavailable');
    expect(answer).toMatchObject({ reason: expect.stringMatching(/^rpc_/) });
  });
});
