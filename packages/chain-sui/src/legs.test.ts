import { Transaction } from '@mysten/sui/transactions';
import type { LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import {
  legRequest,
  PACKAGE_ID,
  PLAN_ID,
  RESOLVED_REFS,
  ROUTER_ID,
  suiConfig,
  USDC,
} from './testFixtures';

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
  it.each([['usdcCoinType', { usdcCoinType: undefined }, 'asset_not_configured']] as const)(
    'blocks when %s is missing',
    async (field, overrides, code) => {
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
    },
  );
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
    const unconfigured = createSuiAdapter(suiConfig({ usdcCoinType: undefined }));
    await expect(unconfigured.buildDeposit(legRequest('bob'))).rejects.toMatchObject({
      field: 'owner',
    });
  });
});

describe('unresolved wallet legs (sui-transaction-json): route and exit with no venue', () => {
  const adapter = createSuiAdapter(suiConfig());

  it.each([
    [
      'deposit',
      () => adapter.buildDeposit(legRequest(OWNER)),
      /^Show 12\.5 USDC held in .* counted as liquid/,
    ],
    [
      'withdraw',
      () => adapter.buildWithdraw(legRequest(OWNER)),
      /^Show 12\.5 USDC held in .* leaving liquid/,
    ],
  ] as const)(
    '%s: the owner sends the amount to themselves, with the plan id',
    async (action, build, summary) => {
      const leg = onlyLeg(await build());
      expect(leg).toMatchObject({
        chain: 'sui',
        action,
        planId: PLAN_ID,
        amountMicros: 12_500_000n,
        settles: true,
      });
      expect(leg.summary).toMatch(summary);
      expect(leg.payload.encoding).toBe('sui-transaction-json');

      const tx = Transaction.from(suiJson(leg));
      const data = tx.getData();
      expect(data.sender).toBe(OWNER);
      expect(data.gasData.payment).toBeNull();
      const [intent, transfer] = data.commands;
      expect(data.commands).toHaveLength(2);
      expect(intent?.$Intent).toMatchObject({
        name: 'CoinWithBalance',
        data: { type: USDC, balance: '12500000' },
      });
      expect(transfer?.TransferObjects?.objects).toEqual([{ $kind: 'Result', Result: 0 }]);
      const recipient = transfer?.TransferObjects?.address;
      const input = recipient?.$kind === 'Input' ? data.inputs[recipient.Input] : undefined;
      expect(Buffer.from(pureBytes(input)).toString('hex')).toBe(OWNER.slice(2));
      expect(data.inputs.map(pureBytes)).toContainEqual(PLAN_BCS);

      // The JSON survives a second serialization unchanged (what a wallet receives is stable).
      expect(await tx.toJSON({ supportedIntents: ['CoinWithBalance'] })).toBe(suiJson(leg));
    },
  );

  it('no Move call of a route or exit plan targets our router package (nor any package)', async () => {
    for (const build of [
      await adapter.buildDeposit(legRequest(OWNER)),
      await adapter.buildWithdraw(legRequest(OWNER)),
      await adapter.buildDepositBytes(legRequest(OWNER), RESOLVED_REFS),
      await adapter.buildWithdrawBytes(legRequest(OWNER), RESOLVED_REFS),
    ]) {
      const payload = onlyLeg(build).payload;
      const data = Transaction.from(payload.transaction as string | Uint8Array).getData();
      const calls = data.commands.flatMap((command) =>
        command.MoveCall ? [command.MoveCall] : [],
      );
      expect(calls).toEqual([]);
      expect(JSON.stringify(data)).not.toContain(PACKAGE_ID.slice(2));
      expect(JSON.stringify(data)).not.toContain(ROUTER_ID.slice(2));
    }
  });
});
