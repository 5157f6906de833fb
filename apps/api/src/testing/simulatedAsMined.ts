import type { PlanSimulation } from '@yieldrouter/schemas';
import { erc20Abi, parseEventLogs, zeroAddress } from 'viem';
import type { Hex, PublicClient } from 'viem';

type Reader = Pick<PublicClient, 'getTransactionReceipt'>;

const net = (rows: { account: string; asset: string; delta: bigint }[]) => {
  const sums = new Map<string, bigint>();
  for (const { account, asset, delta } of rows) {
    const key = `${asset}:${account}`.toLowerCase();
    sums.set(key, (sums.get(key) ?? 0n) + delta);
  }
  return Object.fromEntries([...sums].filter(([, delta]) => delta !== 0n));
};

/**
 * Issue 44 on an honest bed: each mined leg of `plan` moved exactly what its simulation at
 * prepare said, token by token and account by account, and set the allowances it said. The
 * mined side is read here with viem's ERC-20 ABI (`Transfer`, `Approval` logs), not with the
 * service's own reader. The plan itself has no findings.
 */
export async function expectSimulatedAsMined(
  reader: Reader,
  plan: { readonly planId?: string | undefined; readonly simulation?: PlanSimulation | undefined },
  mined: Readonly<Record<number, string>>,
): Promise<void> {
  const simulation = plan.simulation;
  if (simulation?.status !== 'simulated') {
    throw new Error(`plan ${plan.planId} was not simulated: ${JSON.stringify(simulation)}`);
  }
  expect(simulation.findings).toEqual([]);
  const indexes = Object.keys(mined).map(Number);
  expect(indexes.length).toBeGreaterThan(0);
  let moved = 0;
  for (const index of indexes) {
    const leg = simulation.legs.find((entry) => entry.index === index);
    if (!leg) throw new Error(`leg ${index} was not simulated`);
    const receipt = await reader.getTransactionReceipt({ hash: mined[index] as Hex });
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    const actual = transfers.flatMap(({ address, args }) => [
      { account: args.from, asset: address, delta: -args.value },
      { account: args.to, asset: address, delta: args.value },
    ]);
    const simulated = leg.changes.map((change) => ({ ...change, delta: BigInt(change.delta) }));
    moved += simulated.length;
    const minted = (row: { account: string }) => row.account.toLowerCase() !== zeroAddress;
    expect({ index, changes: net(simulated) }).toEqual({
      index,
      changes: net(actual.filter(minted)),
    });
    const approvals = parseEventLogs({ abi: erc20Abi, eventName: 'Approval', logs: receipt.logs });
    const allowances = (
      rows: { holder: string; spender: string; asset: string; value: bigint }[],
    ) =>
      Object.fromEntries(
        rows.map((row) => [`${row.asset}:${row.holder}:${row.spender}`.toLowerCase(), row.value]),
      );
    expect({
      index,
      approvals: allowances(
        (leg.approvals ?? []).map((row) => ({ ...row, value: BigInt(row.allowance) })),
      ),
    }).toEqual({
      index,
      approvals: allowances(
        approvals.map(({ address, args }) => ({
          holder: args.owner,
          spender: args.spender,
          asset: address,
          value: args.value,
        })),
      ),
    });
  }
  // Not vacuous: the legs compared moved money.
  expect(moved).toBeGreaterThan(0);
}
