import { encodeEventTopics, encodeAbiParameters } from 'viem';
import type { Address, Hex } from 'viem';
import { aaveV3ATokenAbi, erc20Abi } from './abis';
import type { EvmLog } from './evmRpc';
import { RAY, rayDiv, rayMul } from './rayMath';
import { settledAaveMovement } from './settledAaveMovement';

// Logs shaped as Aave v3 emits them, to check the arithmetic the anvil bed cannot vary freely.

const OWNER: Address = '0x1111111111111111111111111111111111111111';
const OTHER: Address = '0x2222222222222222222222222222222222222222';
const A_TOKEN: Address = '0x3333333333333333333333333333333333333333';
const USDC: Address = '0x4444444444444444444444444444444444444444';
const ZERO: Address = '0x0000000000000000000000000000000000000000';
const UINTS = [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }] as const;

/** Topics of an event with every indexed argument given: all of them are hex. */
function topics(encoded: readonly (Hex | Hex[] | null)[]): Hex[] {
  return encoded.filter((topic): topic is Hex => typeof topic === 'string');
}

function usdcTransfer(from: Address, to: Address, value: bigint, address = USDC): EvmLog {
  return {
    address,
    topics: topics(encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer', args: { from, to } })),
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  };
}

function aTokenEvent(
  eventName: 'Mint' | 'Burn',
  [first, second]: readonly [Address, Address],
  [value, balanceIncrease, index]: readonly [bigint, bigint, bigint],
  address = A_TOKEN,
): EvmLog {
  const encoded =
    eventName === 'Mint'
      ? encodeEventTopics({
          abi: aaveV3ATokenAbi,
          eventName,
          args: { caller: first, onBehalfOf: second },
        })
      : encodeEventTopics({
          abi: aaveV3ATokenAbi,
          eventName,
          args: { from: first, target: second },
        });
  return {
    address,
    topics: topics(encoded),
    data: encodeAbiParameters(UINTS, [value, balanceIncrease, index]),
  };
}

const move = (action: 'deposit' | 'withdraw', logs: EvmLog[]) =>
  settledAaveMovement({ aToken: A_TOKEN, action, owner: OWNER, usdc: USDC, logs });

const INDEX = (RAY * 11n) / 10n;

describe('settledAaveMovement', () => {
  it('a supply: USDC from the Transfer, shares = (Mint.value - balanceIncrease) rayDiv index', () => {
    const logs = [
      usdcTransfer(OWNER, A_TOKEN, 5_500_000n),
      usdcTransfer(ZERO, OWNER, 6_400_000n, A_TOKEN), // the aToken's own Transfer: not USDC
      aTokenEvent('Mint', [OWNER, OWNER], [6_400_000n, 900_000n, INDEX]),
    ];
    expect(move('deposit', logs)).toEqual({ amountMicros: 5_500_000n, shares: 5_000_000n });
  });

  it('a withdrawal: Burn (value + balanceIncrease), or the Mint Aave emits when interest exceeds it', () => {
    const burn = [
      usdcTransfer(A_TOKEN, OWNER, 4_400_000n),
      aTokenEvent('Burn', [OWNER, OWNER], [4_000_000n, 400_000n, INDEX]),
    ];
    expect(move('withdraw', burn)).toEqual({ amountMicros: 4_400_000n, shares: 4_000_000n });
    const index12 = (RAY * 12n) / 10n;
    const mint = [
      usdcTransfer(A_TOKEN, OWNER, 600_000n),
      aTokenEvent('Mint', [OWNER, OWNER], [400_000n, 1_000_000n, index12]),
    ];
    expect(move('withdraw', mint)).toEqual({ amountMicros: 600_000n, shares: 500_000n });
  });

  it('is undefined without both sides, when they disagree, or for another owner or contract', () => {
    const transfer = usdcTransfer(OWNER, A_TOKEN, 1_000_000n);
    const mint = aTokenEvent('Mint', [OWNER, OWNER], [1_000_000n, 0n, RAY]);
    for (const logs of [
      [transfer],
      [mint],
      [transfer, aTokenEvent('Mint', [OWNER, OWNER], [999_999n, 0n, RAY])],
      [transfer, aTokenEvent('Mint', [OWNER, OTHER], [1_000_000n, 0n, RAY])],
      [transfer, aTokenEvent('Mint', [OWNER, OWNER], [1_000_000n, 0n, RAY], OTHER)],
      // A transfer's interest Mint (value = balanceIncrease) supplies nothing.
      [transfer, aTokenEvent('Mint', [OWNER, OWNER], [7n, 7n, RAY])],
    ]) {
      expect(move('deposit', logs)).toBeUndefined();
    }
    // A supply's Mint is not a withdrawal; a Burn to someone else is not the owner's.
    expect(move('withdraw', [usdcTransfer(A_TOKEN, OWNER, 5n), mint])).toBeUndefined();
    const elsewhere = aTokenEvent('Burn', [OWNER, OTHER], [5n, 0n, RAY]);
    expect(move('withdraw', [usdcTransfer(A_TOKEN, OWNER, 5n), elsewhere])).toBeUndefined();
  });
});

describe('rayMul / rayDiv', () => {
  it('round half up, as Aave v3 WadRayMath', () => {
    expect(rayMul(1n, RAY / 2n)).toBe(1n);
    expect(rayMul(1n, RAY / 2n - 1n)).toBe(0n);
    expect(rayMul(10_000_000n, INDEX)).toBe(11_000_000n);
    expect(rayDiv(1n, 2n * RAY)).toBe(1n);
    expect(rayDiv(1n, 2n * RAY + 2n)).toBe(0n);
    expect(rayDiv(5_500_000n, INDEX)).toBe(5_000_000n);
  });
});
