import { anvilChain, compileContracts, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { newPlanId, planIdToBytes } from '@yieldrouter/schemas';
import {
  BaseError,
  bytesToHex,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  http,
  parseEventLogs,
} from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { cageAbi } from './cageAbi';
import { createEvmCage } from './createEvmCage';
import type { EvmCage } from './createEvmCage';
import { encodeCageAction, encodeCagePolicy } from './encodeCageCall';
import type { CageCall } from './encodeCageCall';

// The cage contract on anvil: each of the six actions allowed, each lock refusing (a simulated
// call names the custom error; a sent transaction is mined reverted), and EXIT through a pause.

let bed: EvmBed;
let cage: EvmCage;
let compiledAbi: Abi;
const USDC = 1_000_000n;

beforeAll(async () => {
  bed = await startEvmBed({ chainId: 8453 });
  cage = createEvmCage({
    chain: 'base',
    rpcUrl: bed.anvil.rpcUrl,
    timeoutMs: 2_000,
    usdcAddress: bed.fixtures.usdc,
    registryAddress: undefined,
    cageAddress: bed.fixtures.cage,
  });
  compiledAbi = (await compileContracts()).YieldCage.abi;
});
afterAll(() => bed?.stop());

function wallet(index: number) {
  const key = bed.anvil.accounts[index]?.privateKey;
  if (!key) throw new Error(`no anvil account ${index}`);
  const account = privateKeyToAccount(key);
  const chain = anvilChain(8453, bed.anvil.rpcUrl);
  const transport = http(bed.anvil.rpcUrl);
  const client = createWalletClient({ account, chain, transport });
  const reader = createPublicClient({ chain, transport });
  return {
    address: account.address,
    /** Sends with a fixed gas limit (no estimate), so a reverting call is still mined. */
    async send(to: Address, data: Hex) {
      const hash = await client.sendTransaction({ to, data, gas: 1_000_000n });
      return reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    },
    /** The custom error the call would revert with, or 'ok'. */
    async dryRun(to: Address, data: Hex): Promise<string> {
      try {
        await reader.call({ account, to, data });
        return 'ok';
      } catch (error) {
        // The revert data sits on the innermost error of the chain viem built.
        const raw = error instanceof BaseError ? error.walk((link) => hasRevertData(link)) : null;
        if (!hasRevertData(raw)) throw error;
        return decodeErrorResult({ abi: compiledAbi, data: raw.data }).errorName;
      }
    },
  };
}

function hasRevertData(value: unknown): value is { data: Hex } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { data?: unknown }).data === 'string' &&
    /^0x[0-9a-f]{8}/i.test((value as { data: string }).data)
  );
}

const owner = () => wallet(1);
const agent = () => wallet(2);
const payee = () => wallet(3);
const stranger = () => wallet(4);

function action(call: CageCall, amount: bigint, planId = newPlanId()) {
  return { planId, data: encodeCageAction({ planId, owner: owner().address, amount, call }) };
}

async function state() {
  const read = await cage.readState(owner().address);
  if (read.status !== 'available') throw new Error(read.detail);
  return read;
}

describe('the cage ABI', () => {
  it('every entry the adapter encodes or reads exists in the compiled contract, same types', () => {
    const signature = (entry: Abi[number]) =>
      'name' in entry && 'inputs' in entry
        ? `${entry.type} ${entry.name}(${entry.inputs.map((input) => input.type).join(',')})`
        : entry.type;
    const compiled = new Set(compiledAbi.map(signature));
    for (const entry of cageAbi) expect(compiled).toContain(signature(entry as Abi[number]));
  });
});

describe('YieldCage on anvil', () => {
  beforeAll(async () => {
    const { fixtures } = bed;
    await fixtures.mintUsdc(owner().address, 100n * USDC);
    const approve = cage.approval(owner().address, 100n * USDC);
    if (!approve) throw new Error('no approval');
    expect((await owner().send(approve.to as Address, approve.data as Hex)).status).toBe('success');
    const policy = encodeCagePolicy({
      planId: newPlanId(),
      enabled: true,
      skimBps: 1000,
      agent: agent().address,
      venues: [fixtures.vault, fixtures.altVault],
      payees: [payee().address],
    });
    expect((await owner().send(bed.fixtures.cage, policy)).status).toBe('success');
  });

  it('ROUTE moves the owner’s USDC into an allowlisted venue and emits the plan id', async () => {
    const { planId, data } = action({ kind: 'ROUTE', venue: bed.fixtures.vault }, 40n * USDC);
    const receipt = await owner().send(bed.fixtures.cage, data);
    expect(receipt.status).toBe('success');
    const [event] = parseEventLogs({
      abi: cageAbi,
      logs: receipt.logs,
      eventName: 'ActionExecuted',
    });
    expect(event?.args.planId).toBe(bytesToHex(planIdToBytes(planId)));
    expect(event?.args.action).toBe(0);
    const read = await state();
    expect(read.venues.find((venue) => venue.venue === bed.fixtures.vault)?.principal).toBe(
      40n * USDC,
    );
  });

  it('REBALANCE only between allowlisted venues', async () => {
    const moved = action(
      { kind: 'REBALANCE', fromVenue: bed.fixtures.vault, toVenue: bed.fixtures.altVault },
      10n * USDC,
    );
    expect((await agent().send(bed.fixtures.cage, moved.data)).status).toBe('success');
    const outside = action(
      { kind: 'REBALANCE', fromVenue: bed.fixtures.vault, toVenue: bed.fixtures.aToken },
      1n * USDC,
    );
    expect(await owner().dryRun(bed.fixtures.cage, outside.data)).toBe('VenueNotAllowed');
    expect((await owner().send(bed.fixtures.cage, outside.data)).status).toBe('reverted');
  });

  it('HARVEST and COMPOUND take yield only, skim to the treasury, pay only the owner', async () => {
    await bed.fixtures.simulateYield(8n * USDC);
    const { yield: earned } = (await state()).venues.find((v) => v.venue === bed.fixtures.vault)!;
    expect(earned).toBeGreaterThan(0n);
    const half = earned / 2n;
    const elsewhere = action(
      { kind: 'HARVEST', venue: bed.fixtures.vault, to: stranger().address },
      half,
    );
    expect(await owner().dryRun(bed.fixtures.cage, elsewhere.data)).toBe('DestinationLocked');
    const tooMuch = action(
      { kind: 'HARVEST', venue: bed.fixtures.vault, to: owner().address },
      earned + 1n,
    );
    expect(await owner().dryRun(bed.fixtures.cage, tooMuch.data)).toBe('InsufficientYield');
    const harvest = action(
      { kind: 'HARVEST', venue: bed.fixtures.vault, to: owner().address },
      half,
    );
    expect((await agent().send(bed.fixtures.cage, harvest.data)).status).toBe('success');

    const compoundElsewhere = action(
      { kind: 'COMPOUND', venue: bed.fixtures.vault, to: agent().address },
      half / 2n,
    );
    expect(await agent().dryRun(bed.fixtures.cage, compoundElsewhere.data)).toBe(
      'DestinationLocked',
    );
    const compound = action(
      { kind: 'COMPOUND', venue: bed.fixtures.vault, to: owner().address },
      half / 2n,
    );
    const receipt = await agent().send(bed.fixtures.cage, compound.data);
    expect(receipt.status).toBe('success');
    const [event] = parseEventLogs({
      abi: cageAbi,
      logs: receipt.logs,
      eventName: 'ActionExecuted',
    });
    expect(event?.args.skim).toBe(half / 2n / 10n);
    expect(event?.args.destination).toBe(owner().address);
  });

  it('AUTOPAY only to an allowlisted payee', async () => {
    const pay = action(
      { kind: 'AUTOPAY', venue: bed.fixtures.altVault, payee: payee().address },
      2n * USDC,
    );
    expect((await agent().send(bed.fixtures.cage, pay.data)).status).toBe('success');
    const raw = action(
      { kind: 'AUTOPAY', venue: bed.fixtures.altVault, payee: stranger().address },
      1n * USDC,
    );
    expect(await agent().dryRun(bed.fixtures.cage, raw.data)).toBe('PayeeNotAllowed');
  });

  it('EXIT goes only to the owner: a direct transaction to another address reverts', async () => {
    const away = action(
      { kind: 'EXIT', venue: bed.fixtures.vault, to: agent().address },
      1n * USDC,
    );
    expect(await agent().dryRun(bed.fixtures.cage, away.data)).toBe('DestinationLocked');
    expect((await agent().send(bed.fixtures.cage, away.data)).status).toBe('reverted');
    const home = action({ kind: 'EXIT', venue: bed.fixtures.vault, to: owner().address }, USDC);
    expect(await stranger().dryRun(bed.fixtures.cage, home.data)).toBe('NotOwnerOrAgent');
    expect((await agent().send(bed.fixtures.cage, home.data)).status).toBe('success');
  });

  it('a pause stops every action but EXIT', async () => {
    await bed.fixtures.setCagePaused(true);
    try {
      expect((await state()).paused).toBe(true);
      const route = action({ kind: 'ROUTE', venue: bed.fixtures.vault }, USDC);
      expect(await owner().dryRun(bed.fixtures.cage, route.data)).toBe('CagePaused');
      const exit = action({ kind: 'EXIT', venue: bed.fixtures.vault, to: owner().address }, USDC);
      expect((await owner().send(bed.fixtures.cage, exit.data)).status).toBe('success');
    } finally {
      await bed.fixtures.setCagePaused(false);
    }
  });

  it('only the owner changes its policy: the agent’s call sets its own, skim is capped', async () => {
    const before = await state();
    const rewrite = encodeCagePolicy({
      planId: newPlanId(),
      enabled: true,
      skimBps: 0,
      agent: null,
      venues: [],
      payees: [stranger().address],
    });
    expect((await agent().send(bed.fixtures.cage, rewrite)).status).toBe('success');
    expect((await state()).payees).toEqual(before.payees);
    const greedy = encodeCagePolicy({
      planId: newPlanId(),
      enabled: true,
      skimBps: 1001,
      agent: null,
      venues: [],
      payees: [],
    });
    expect(await owner().dryRun(bed.fixtures.cage, greedy)).toBe('SkimTooHigh');
  });

  it('amount 0 is refused', async () => {
    const zero = action({ kind: 'ROUTE', venue: bed.fixtures.vault }, 0n);
    expect(await owner().dryRun(bed.fixtures.cage, zero.data)).toBe('ZeroAmount');
  });
});
