import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transaction } from '@mysten/sui/transactions';
import type { TransactionObjectArgument } from '@mysten/sui/transactions';
import { normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import { depositCoinPTB, withdrawCoinPTB } from '@naviprotocol/lending';
import {
  POOL_ADDRESSES,
  ScallopBuilder,
  TEST_ADDRESSES,
  WHITELIST,
} from '@scallop-io/sui-scallop-sdk';
import { PUBLISHED_AT } from '@suilend/sdk/_generated/suilend';
import {
  depositLiquidityAndMintCtokens,
  redeemCtokensAndWithdrawLiquidity,
} from '@suilend/sdk/_generated/suilend/lending-market/functions';
import type { SuiVenue } from './suiVenue';
import { resolveSuiVenue } from './suiVenue';
import { appendVenueDeposit, appendVenueWithdraw } from './venueCalls';

// @naviprotocol/lending 1.4.6 builds a default mainnet client at load time with @mysten/sui 1.x's
// `getFullnodeUrl` / `SuiClient`, which 2.x no longer exports from `client`. The builders compared
// here never use that client (they read Navi's config over fetch, answered locally below).
jest.mock('@mysten/sui/client', () => ({
  ...jest.requireActual<object>('@mysten/sui/client'),
  getFullnodeUrl: () => 'http://127.0.0.1:9',
  SuiClient: class {
    constructor(readonly options: unknown) {}
  },
}));

// Our venue calls against the protocols' own published builders: same package, module,
// function, type arguments, and arguments (objects by id, pure values by bytes, results by
// position). Ids are mainnet's (profiles/mainnet).
const USDC = normalizeStructTag(
  '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC',
);
const OWNER = normalizeSuiAddress(`0x${'0b'.repeat(32)}`);
const COIN = normalizeSuiAddress(`0x${'c0'.repeat(32)}`);

interface TransactionShape {
  getData(): {
    inputs: readonly Record<string, unknown>[];
    commands: readonly Record<string, unknown>[];
  };
}

/** Every command with its arguments spelled out: the input they name, or the result they use. */
function shape(tx: TransactionShape) {
  const { inputs, commands } = tx.getData();
  const argument = (value: unknown): unknown => {
    const arg = value as { Input?: number; Result?: number; NestedResult?: [number, number] };
    if (arg.Input !== undefined) {
      const input = inputs[arg.Input] as {
        UnresolvedObject?: { objectId: string };
        Object?: { SharedObject?: { objectId: string } };
        Pure?: { bytes: string };
      };
      // By id or by shared ref (Scallop passes the Clock as a shared ref): the same object.
      const object = input.UnresolvedObject ?? input.Object?.SharedObject;
      if (object) return { object: normalizeSuiAddress(object.objectId) };
      if (input.Pure) return { pure: input.Pure.bytes };
      return input;
    }
    if (arg.Result !== undefined) return { result: arg.Result };
    if (arg.NestedResult) return { result: arg.NestedResult[0], index: arg.NestedResult[1] };
    return arg;
  };
  return commands.map((command) => {
    const call = command.MoveCall as
      | {
          package: string;
          module: string;
          function: string;
          typeArguments: string[];
          arguments: unknown[];
        }
      | undefined;
    if (call) {
      return {
        call: `${normalizeSuiAddress(call.package)}::${call.module}::${call.function}`,
        typeArguments: call.typeArguments.map((type) => normalizeStructTag(type)),
        arguments: call.arguments.map(argument),
      };
    }
    const transfer = command.TransferObjects as
      { objects: unknown[]; address: unknown } | undefined;
    if (transfer)
      return { transfer: transfer.objects.map(argument), to: argument(transfer.address) };
    return command;
  });
}

function venue(venueId: string, ids: Record<string, string>): SuiVenue {
  const resolved = resolveSuiVenue(
    { venueId, chain: 'sui', standard: 'router-adapter', ids },
    USDC,
  );
  if (resolved.status !== 'ok') throw new Error(JSON.stringify(resolved.blockers));
  return resolved.venue;
}

function ours(target: SuiVenue, build: (tx: Transaction, coin: TransactionObjectArgument) => void) {
  const tx = new Transaction();
  build(tx, tx.object(COIN));
  return tx;
}
const context = (tx: Transaction, target: SuiVenue) => ({
  tx,
  venue: target,
  usdc: USDC,
  owner: OWNER,
  object: (id: string) => tx.object(id),
});

describe('Suilend: our calls are its generated bindings', () => {
  const MARKET_TYPE =
    '0xf95b06141ed4a174f239417323bde3f209b972f5930d8521ea38a52aff3a6ddf::suilend::MAIN_POOL';
  const MARKET = '0x84030d26d85eaa7035084a057f2f11f701b7e2e4eda87551becbc7c97505ece1';
  const suilend = venue('suilend', {
    package: PUBLISHED_AT,
    lendingMarket: MARKET,
    lendingMarketType: MARKET_TYPE,
    reserveIndex: '7',
    receiptCoinType: `0xf95b06141ed4a174f239417323bde3f209b972f5930d8521ea38a52aff3a6ddf::reserve::CToken<${MARKET_TYPE}, ${USDC}>`,
  });

  it('deposit_liquidity_and_mint_ctokens, the CTokens to the owner', () => {
    const mine = ours(suilend, (tx, coin) => appendVenueDeposit(context(tx, suilend), coin, 5n));
    const theirs = new Transaction();
    const [ctokens] = depositLiquidityAndMintCtokens(theirs, [MARKET_TYPE, USDC], {
      lendingMarket: theirs.object(MARKET),
      reserveArrayIndex: theirs.pure.u64(7n),
      clock: theirs.object('0x6'),
      deposit: theirs.object(COIN),
    });
    // As the SDK's depositLiquidityAndGetCTokens does.
    theirs.transferObjects([ctokens!], theirs.pure.address(OWNER));
    expect(shape(mine)).toEqual(shape(theirs));
  });

  it('redeem_ctokens_and_withdraw_liquidity with no rate-limiter exemption, USDC to the owner', () => {
    const mine = ours(suilend, (tx, coin) =>
      appendVenueWithdraw(context(tx, suilend), { receipt: coin, amount: 5n }),
    );
    const theirs = new Transaction();
    const [usdc] = redeemCtokensAndWithdrawLiquidity(theirs, [MARKET_TYPE, USDC], {
      lendingMarket: theirs.object(MARKET),
      reserveArrayIndex: theirs.pure.u64(7n),
      clock: theirs.object('0x6'),
      ctokens: theirs.object(COIN),
      rateLimiterExemption: null,
    });
    theirs.transferObjects([usdc!], theirs.pure.address(OWNER));
    expect(shape(mine)).toEqual(shape(theirs));
  });
});

describe("Navi: our calls are @naviprotocol/lending's depositCoinPTB / withdrawCoinPTB", () => {
  // navi-sdk's mainnet address book (getConfig, pool.nUSDC); the package is its default.
  const CONFIG = {
    package: '0x1e4a13a0494d5facdbe8473e74127b838c2d446ecec0ce262e2eddafa77259cb',
    storage: '0xbb4e2f4b6205c2e2a2db47aeb4f830796ec7c005f88537ee775986639bc442fe',
    incentiveV2: '0xf87a8acb8b81d14307894d12595541a73f19933f88e1326d5be349c7a6f7559c',
    incentiveV3: '0x62982dad27fb10bb314b3384d5de8d2ac2d72ab2dbeae5d801dbdb9efa816c80',
    priceOracle: '0x1568865ed9a0b5ec414220e8f79b3d04c77acc82358f6e5ae4635687392ffbef',
    version: 2,
  };
  const POOL = '0xa3582097b4c57630046c0c49a88bfc6b202a3ec0a9db5597c31765f7563755a8';
  const navi = venue('navi', {
    package: CONFIG.package,
    storage: CONFIG.storage,
    pool: POOL,
    assetId: '10',
    incentiveV2: CONFIG.incentiveV2,
    incentiveV3: CONFIG.incentiveV3,
    priceOracle: CONFIG.priceOracle,
    reserve: '0x4c8a2c72a22ae8da803a8519798d312c86e74a9e0d6ec0eec2bfcf7e4b3fef5e',
    supplyBalances: '0x08b5ce8574ac3bc9327e66ad5decd34d07ee798f724ad01058e8855ac9acb605',
    lendingCorePackage: '0xd899cf7d2b5db716bd2cf55599fb0d5ee38a3061e7b6bb6eebf73fa5bc4c81ca',
  });
  // The pool as Navi's API describes it: depositCoinPTB / withdrawCoinPTB take it as is.
  const pool = {
    id: 10,
    suiCoinType: USDC,
    coinType: USDC.slice(2),
    contract: { pool: POOL },
    token: { symbol: 'USDC', decimals: 6 },
  };
  const options = { env: 'prod' as const, disableCache: true };

  // The SDK reads its lending config from Navi's open API: a local stand-in answers that one call.
  let fetchSpy: jest.SpyInstance;
  beforeAll(() => {
    fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      const answer = (body: unknown) =>
        new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      if (url.startsWith('https://open-api.naviprotocol.io/api/navi/config')) {
        return answer({ data: CONFIG });
      }
      // Before taking the pool object it is given, depositCoinPTB loads the market's pool list.
      if (url.startsWith('https://open-api.naviprotocol.io/api/navi/pools')) {
        return answer({ data: [], meta: { emodes: [] } });
      }
      throw new Error(`unexpected fetch ${url}`);
    });
  });
  afterAll(() => fetchSpy.mockRestore());

  it('incentive_v3::entry_deposit with the amount', async () => {
    const mine = ours(navi, (tx, coin) => appendVenueDeposit(context(tx, navi), coin, 2_500_000n));
    const theirs = new Transaction();
    await depositCoinPTB(theirs as never, pool as never, theirs.object(COIN) as never, {
      ...options,
      amount: 2_500_000,
    });
    expect(shape(mine)).toEqual(shape(theirs));
  });

  it('incentive_v3::withdraw_v2, then coin::from_balance, USDC to the owner', async () => {
    const mine = ours(navi, (tx) =>
      appendVenueWithdraw(context(tx, navi), { receipt: undefined, amount: 2_500_000n }),
    );
    // Ours adds the owned coin input first; theirs never names it, so both start alike.
    const theirs = new Transaction();
    theirs.object(COIN);
    const coin = await withdrawCoinPTB(theirs as never, pool as never, 2_500_000, options);
    theirs.transferObjects([coin as never], theirs.pure.address(OWNER));
    expect(shape(mine)).toEqual(shape(theirs));
    expect(fetchSpy).toHaveBeenCalled();
  });
});

describe("Scallop: our calls are @scallop-io/sui-scallop-sdk's ScallopBuilder deposit / withdraw", () => {
  // Scallop's mainnet core ids (profiles/mainnet/scallop.json) put into the SDK's own address
  // book shape; the SDK's own whitelist and USDC pool entry. Nothing is fetched.
  const PACKAGE = '0xd384ded6b9e7f4d2c4c9007b0291ef88fbfed8e709bce83d2da69de2d79d013d';
  const VERSION = '0x07871c4b3c847a0f674510d4978d5cf6f960452795e8ff6f189fd2088a3f6ac7';
  const MARKET = '0xa757975255146dc9686aa823b7838b507f315d704f428cbadad2f4ea061939d9';
  const scallop = venue('scallop', {
    package: PACKAGE,
    version: VERSION,
    market: MARKET,
    balanceSheet: POOL_ADDRESSES.usdc?.lendingPoolAddress ?? '',
    receiptCoinType: `0xefe8b36d5b2e43728cc323298626b83177803521d195cfb11e15b910e892fddf::reserve::MarketCoin<${USDC}>`,
  });

  async function scallopBuilder() {
    const builder = new ScallopBuilder({
      networkType: 'mainnet',
      walletAddress: OWNER,
      forceAddressesInterface: {
        mainnet: {
          ...TEST_ADDRESSES,
          core: {
            ...TEST_ADDRESSES.core,
            version: VERSION,
            market: MARKET,
            packages: {
              ...TEST_ADDRESSES.core.packages,
              protocol: { ...TEST_ADDRESSES.core.packages.protocol, id: PACKAGE },
            },
          },
        },
      },
      forceWhitelistInterface: WHITELIST,
      forcePoolAddressInterface: POOL_ADDRESSES,
    });
    await builder.init();
    return builder;
  }

  it('mint::mint, the MarketCoin to the owner', async () => {
    const mine = ours(scallop, (tx, coin) => appendVenueDeposit(context(tx, scallop), coin, 5n));
    const txb = (await scallopBuilder()).createTxBlock();
    const marketCoin = txb.deposit(txb.object(COIN), 'usdc');
    txb.transferObjects([marketCoin], OWNER);
    expect(shape(mine)).toEqual(shape(txb.txBlock as unknown as TransactionShape));
  });

  it('redeem::redeem, the USDC to the owner', async () => {
    const mine = ours(scallop, (tx, coin) =>
      appendVenueWithdraw(context(tx, scallop), { receipt: coin, amount: 5n }),
    );
    const txb = (await scallopBuilder()).createTxBlock();
    const usdc = txb.withdraw(txb.object(COIN), 'usdc');
    txb.transferObjects([usdc], OWNER);
    expect(shape(mine)).toEqual(shape(txb.txBlock as unknown as TransactionShape));
  });
});

// profiles/mainnet/{suilend,navi,scallop}.json: each id with its source, checked against the
// SDKs' own constants where they ship them; an id no SDK ships and we could not source is left
// out, so the venue stays blocked naming it rather than calling a guessed object.
it("the mainnet USDC is the coin type Scallop's SDK names", () => {
  expect(normalizeStructTag(POOL_ADDRESSES.usdc?.coinType ?? '')).toBe(USDC);
});

function profile(name: string): Record<string, string> {
  const path = join(__dirname, '../../../../profiles/mainnet', `${name}.json`);
  const entries = JSON.parse(readFileSync(path, 'utf8')) as Record<
    string,
    { id: string; source: string }
  >;
  for (const [idName, entry] of Object.entries(entries)) {
    expect({ idName, source: entry.source.length > 10 }).toEqual({ idName, source: true });
  }
  return Object.fromEntries(Object.entries(entries).map(([idName, entry]) => [idName, entry.id]));
}

const blockedOn = (venueId: string, ids: Record<string, string>) => {
  const resolved = resolveSuiVenue(
    { venueId, chain: 'sui', standard: 'router-adapter', ids },
    USDC,
  );
  return resolved.status === 'blocked' ? resolved.blockers.map((blocker) => blocker.field) : [];
};

it("suilend: the package Suilend's repository last published; nothing left (the reserve index is read on chain)", () => {
  const ids = profile('suilend');
  // The SDK's PUBLISHED_AT is a fallback it replaces at run time with its UpgradeCap's package:
  // the profile takes the newer one Suilend's repository publishes (see the file's source).
  expect(normalizeSuiAddress(ids.package ?? '')).not.toBe(normalizeSuiAddress(PUBLISHED_AT));
  expect(blockedOn('suilend', ids)).toEqual([]);
});

it('navi: every object its calls and reads take', () => {
  expect(blockedOn('navi', profile('navi'))).toEqual([]);
});

it("scallop: the SDK's USDC balance sheet and Scallop's latest published package: nothing left", () => {
  const ids = profile('scallop');
  expect(ids.balanceSheet).toBe(POOL_ADDRESSES.usdc?.lendingPoolAddress);
  expect(blockedOn('scallop', ids)).toEqual([]);
});
