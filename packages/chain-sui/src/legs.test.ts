import { Transaction } from '@mysten/sui/transactions';
import type { LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import { legRequest, PACKAGE_ID, PLAN_ID, ROUTER_ID, suiConfig, USDC } from './testFixtures';

const OWNER = `0x${'2b'.repeat(32)}`;

function onlyLeg(build: LegBuild): UnsignedLeg {
  if (build.status !== 'prepared') throw new Error(`expected prepared, got ${build.status}`);
  expect(build.legs).toHaveLength(1);
  const [leg] = build.legs;
  if (!leg) throw new Error('no leg');
  return leg;
}

function suiJson(leg: UnsignedLeg): string {
  if (leg.payload.encoding !== 'sui-transaction-json') throw new Error('not sui-transaction-json');
  return leg.payload.transaction;
}

function pureBytes(input: unknown): number[] {
  const bytes = (input as { Pure?: { bytes: string } }).Pure?.bytes;
  return [...Buffer.from(bytes ?? '', 'base64')];
}

/** BCS of vector<u8>: a ULEB128 length (16) then the bytes. */
const PLAN_BCS = [16, ...planIdToBytes(PLAN_ID)];

describe('blocked legs', () => {
  it.each([
    ['packageId', { packageId: undefined }, 'router_not_configured'],
    ['yieldRouterId', { yieldRouterId: undefined }, 'router_not_configured'],
    ['usdcCoinType', { usdcCoinType: undefined }, 'asset_not_configured'],
  ] as const)('blocks when %s is missing', async (field, overrides, code) => {
    const adapter = createSuiAdapter(suiConfig(overrides));
    for (const build of [
      await adapter.buildDeposit(legRequest(OWNER)),
      await adapter.buildWithdraw(legRequest(OWNER)),
    ]) {
      expect(build.status).toBe('blocked');
      expect(build.status === 'blocked' && build.blockers).toEqual([
        expect.objectContaining({ code, field }),
      ]);
    }
  });
});

describe('bad input', () => {
  const adapter = createSuiAdapter(suiConfig());
  it.each([
    ['owner', legRequest('not-an-address')],
    ['amountMicros', legRequest(OWNER, { amountMicros: 0n })],
    ['amountMicros', legRequest(OWNER, { amountMicros: -1n })],
    ['amountMicros', legRequest(OWNER, { amountMicros: 2n ** 64n })],
    ['planId', legRequest(OWNER, { planId: 'plan_nothex' })],
  ])('throws InvalidChainInputError(%s)', async (field, request) => {
    const error = await adapter.buildDeposit(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidChainInputError);
    expect(error).toMatchObject({ field });
  });

  it('checks input before configuration', async () => {
    const unconfigured = createSuiAdapter(suiConfig({ packageId: undefined }));
    await expect(unconfigured.buildDeposit(legRequest('bob'))).rejects.toMatchObject({
      field: 'owner',
    });
  });
});

describe('unresolved legs (sui-transaction-json)', () => {
  const adapter = createSuiAdapter(suiConfig());

  it('builds a router deposit offline that round-trips through Transaction.from', async () => {
    const leg = onlyLeg(await adapter.buildDeposit(legRequest(OWNER)));
    expect(leg).toMatchObject({
      chain: 'sui',
      action: 'deposit',
      planId: PLAN_ID,
      amountMicros: 12_500_000n,
      settles: true,
    });
    expect(leg.summary).toContain('12.5 USDC');
    expect(leg.payload.encoding).toBe('sui-transaction-json');

    const tx = Transaction.from(suiJson(leg));
    const data = tx.getData();
    expect(data.sender).toBe(OWNER);
    expect(data.gasData.payment).toBeNull();
    const [intent, call] = data.commands;
    expect(intent?.$Intent).toMatchObject({
      name: 'CoinWithBalance',
      data: { type: USDC, balance: '12500000' },
    });
    expect(call?.MoveCall).toMatchObject({
      package: PACKAGE_ID,
      module: 'router',
      function: 'deposit',
      typeArguments: [USDC],
    });
    const args = call?.MoveCall?.arguments ?? [];
    expect(args[0]).toMatchObject({ Input: 0 });
    expect(data.inputs[0]).toMatchObject({ UnresolvedObject: { objectId: ROUTER_ID } });
    expect(args[1]).toMatchObject({ Result: 0 });
    const planInput = args[2]?.$kind === 'Input' ? data.inputs[args[2].Input] : undefined;
    expect(pureBytes(planInput)).toEqual(PLAN_BCS);

    // The JSON survives a second serialization unchanged (what a wallet receives is stable).
    expect(await tx.toJSON({ supportedIntents: ['CoinWithBalance'] })).toBe(suiJson(leg));
  });

  it('builds a router withdrawal that sends the coin back to the owner', async () => {
    const leg = onlyLeg(await adapter.buildWithdraw(legRequest(OWNER)));
    expect(leg.action).toBe('withdraw');
    expect(leg.summary).toMatch(/^Withdraw 12\.5 USDC/);
    const data = Transaction.from(suiJson(leg)).getData();
    const [call, transfer] = data.commands;
    expect(call?.MoveCall).toMatchObject({ function: 'withdraw', typeArguments: [USDC] });
    const [, amount, plan] = call?.MoveCall?.arguments ?? [];
    const input = (arg: typeof amount) =>
      arg?.$kind === 'Input' ? data.inputs[arg.Input] : undefined;
    expect(pureBytes(input(amount))).toEqual([0x20, 0xbc, 0xbe, 0, 0, 0, 0, 0]);
    expect(pureBytes(input(plan))).toEqual(PLAN_BCS);
    expect(transfer?.TransferObjects?.objects).toEqual([{ $kind: 'Result', Result: 0 }]);
    const recipient = transfer?.TransferObjects?.address;
    expect(Buffer.from(pureBytes(input(recipient))).toString('hex')).toBe(OWNER.slice(2));
  });
});
