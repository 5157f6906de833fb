import { getAddress, isAddress } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { createJsonRpcHttp, RpcRequestError } from './jsonRpcHttp';
import type { JsonRpcHttp } from './jsonRpcHttp';
import { RpcBadResponseError } from './RpcBadResponseError';

/** A log as the adapter reads it. */
export interface EvmLog {
  readonly address: Address;
  readonly topics: readonly Hex[];
  readonly data: Hex;
}

export interface EvmReceipt {
  readonly status: 'success' | 'reverted';
  readonly blockNumber: bigint;
  readonly logs: readonly EvmLog[];
}

export interface EvmTransaction {
  readonly from: Address;
  /** Null for a contract creation. */
  readonly to: Address | null;
  readonly input: Hex;
}

/**
 * The JSON-RPC methods the adapter uses, each answer checked before use. Transport failures are
 * `jsonRpcHttp`'s errors (name `TimeoutError`, `HttpRequestError`, `RpcRequestError` with the
 * node's message, `RpcConnectionError` with the socket code); an answer of the wrong shape throws
 * `RpcBadResponseError`. Nothing is retried: a read that fails is reported.
 */
export interface EvmRpc {
  getBalance(address: Address): Promise<bigint>;
  /** The latest block number. */
  blockNumber(): Promise<bigint>;
  /** `eth_call` at `block` (the latest block by default); the raw return data. */
  call(to: Address, data: Hex, block?: bigint): Promise<Hex>;
  /** Null while the transaction is unknown or not yet mined. */
  getTransactionReceipt(hash: Hash): Promise<EvmReceipt | null>;
  getTransaction(hash: Hash): Promise<EvmTransaction | null>;
  /** `eth_estimateGas` of one call from `from` on the latest state. */
  estimateGas(call: EvmCall): Promise<bigint>;
  /**
   * `eth_simulateV1` of the calls in order in one block (each sees the state the earlier ones
   * left): each call's status, gas used and logs, and the simulated block's number.
   */
  simulateCalls(calls: readonly EvmCall[]): Promise<readonly SimulatedCall[]>;
  /**
   * The max fee per gas a transaction sent now should offer: viem's EIP-1559 estimate (latest
   * base fee × 1.2 + `eth_maxPriorityFeePerGas`, or gas price − base fee where that is unknown).
   */
  maxFeePerGas(): Promise<bigint>;
  /** `eth_getLogs` of one contract, by topics, over `fromBlock`..latest. */
  getLogs(filter: EvmLogFilter): Promise<readonly EvmFoundLog[]>;
}

export interface EvmLogFilter {
  readonly address: Address;
  /** topic0 and the indexed arguments wanted (null: any). */
  readonly topics: readonly (Hex | null)[];
  readonly fromBlock: bigint;
}

/** A log found by `getLogs`, with the transaction that emitted it. */
export interface EvmFoundLog extends EvmLog {
  readonly transactionHash: Hash;
  readonly blockNumber: bigint;
}

/** One call of an `eth_simulateV1` block. */
export interface SimulatedCall {
  readonly success: boolean;
  readonly gasUsed: bigint;
  readonly logs: readonly EvmLog[];
  /** The simulated block (one past the state it ran on). */
  readonly blockNumber: bigint;
}

/** A call from an account: what gas sizing asks the node about. */
export interface EvmCall {
  readonly from: Address;
  readonly to: Address;
  readonly data: Hex;
  readonly value: bigint;
}

const callObject = (call: EvmCall) => ({
  from: call.from,
  to: call.to,
  data: call.data,
  value: `0x${call.value.toString(16)}`,
});

export interface CreateEvmRpcParameters {
  readonly rpcUrl: string;
  /** Upper bound on each call, in milliseconds. */
  readonly timeoutMs: number;
}

/**
 * The adapter's JSON-RPC over HTTP: `jsonRpcHttp` (keep-alive node:http(s), a per-call timeout,
 * no retries; about half the CPU per allowance read of viem's transport over `keepAliveFetch`).
 *
 * @example
 * const rpc = createEvmRpc({ rpcUrl: 'http://127.0.0.1:8545', timeoutMs: 2_000 });
 * await rpc.getBalance('0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045');
 */
export function createEvmRpc({ rpcUrl, timeoutMs }: CreateEvmRpcParameters): EvmRpc {
  const client = createJsonRpcHttp({ url: rpcUrl, timeoutMs });
  return {
    async getBalance(address) {
      const result: unknown = await client.request('eth_getBalance', [address, 'latest']);
      return quantity(result, 'eth_getBalance');
    },
    async blockNumber() {
      const result: unknown = await client.request('eth_blockNumber');
      return quantity(result, 'eth_blockNumber');
    },
    async call(to, data, block) {
      const result: unknown = await client.request('eth_call', [
        { to, data },
        block === undefined ? 'latest' : `0x${block.toString(16)}`,
      ]);
      return hexData(result, 'eth_call');
    },
    async getTransactionReceipt(hash) {
      const result: unknown = await client.request('eth_getTransactionReceipt', [hash]);
      return result === null ? null : receipt(result);
    },
    async getTransaction(hash) {
      const result: unknown = await client.request('eth_getTransactionByHash', [hash]);
      return result === null ? null : transaction(result);
    },
    async estimateGas(call) {
      const result: unknown = await client.request('eth_estimateGas', [callObject(call)]);
      return quantity(result, 'eth_estimateGas');
    },
    async simulateCalls(calls) {
      const result: unknown = await client.request('eth_simulateV1', [
        { blockStateCalls: [{ calls: calls.map(callObject) }] },
        'latest',
      ]);
      const block: unknown = Array.isArray(result) ? result[0] : undefined;
      const answered = field(block, 'calls');
      if (!Array.isArray(answered) || answered.length !== calls.length) bad('eth_simulateV1');
      const blockNumber = quantity(field(block, 'number'), 'eth_simulateV1');
      return answered.map((entry: unknown) => {
        const logs = field(entry, 'logs') ?? [];
        if (!Array.isArray(logs)) bad('eth_simulateV1');
        return {
          success: field(entry, 'status') === '0x1',
          gasUsed: quantity(field(entry, 'gasUsed'), 'eth_simulateV1'),
          logs: logs.map((log: unknown) => plainLog(log, 'eth_simulateV1')),
          blockNumber,
        };
      });
    },
    maxFeePerGas: () => maxFeePerGas(client),
    async getLogs(filter) {
      const result: unknown = await client.request('eth_getLogs', [
        {
          address: filter.address,
          topics: [...filter.topics],
          fromBlock: `0x${filter.fromBlock.toString(16)}`,
          toBlock: 'latest',
        },
      ]);
      if (!Array.isArray(result)) bad('eth_getLogs');
      return result.map((entry: unknown) => foundLog(entry));
    },
  };
}

/** viem's default base fee multiplier (1.2), as a ratio. */
const BASE_FEE_MULTIPLIER = [12n, 10n] as const;

/**
 * viem's `estimateFeesPerGas` (EIP-1559, no chain overrides) in two parallel reads: the latest
 * block's base fee × 1.2 plus the node's priority fee; a node without `eth_maxPriorityFeePerGas`
 * (a JSON-RPC error) is asked its gas price, the tip being what it adds to the base fee.
 */
async function maxFeePerGas(client: JsonRpcHttp): Promise<bigint> {
  const [block, tip] = await Promise.all([
    client.request('eth_getBlockByNumber', ['latest', false]),
    client.request('eth_maxPriorityFeePerGas').then(
      (answer) => quantity(answer, 'eth_maxPriorityFeePerGas'),
      (error: unknown) => {
        if (error instanceof RpcRequestError) return null;
        throw error;
      },
    ),
  ]);
  const baseFee = quantity(field(block, 'baseFeePerGas'), 'eth_getBlockByNumber');
  const [times, per] = BASE_FEE_MULTIPLIER;
  if (tip !== null) return (baseFee * times) / per + tip;
  const gasPrice = quantity(await client.request('eth_gasPrice'), 'eth_gasPrice');
  return (baseFee * times) / per + (gasPrice > baseFee ? gasPrice - baseFee : 0n);
}

const QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/;

function bad(what: string): never {
  throw new RpcBadResponseError(`${what}: unexpected answer shape`);
}

function quantity(value: unknown, what: string): bigint {
  return typeof value === 'string' && QUANTITY.test(value) ? BigInt(value) : bad(what);
}

function hexData(value: unknown, what: string): Hex {
  return typeof value === 'string' && DATA.test(value) ? (value as Hex) : bad(what);
}

function address(value: unknown, what: string): Address {
  return typeof value === 'string' && isAddress(value, { strict: false })
    ? getAddress(value)
    : bad(what);
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && key in value
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function receipt(value: unknown): EvmReceipt {
  const what = 'eth_getTransactionReceipt';
  const status = field(value, 'status');
  if (status !== '0x1' && status !== '0x0') bad(what);
  const logs = field(value, 'logs');
  if (!Array.isArray(logs)) bad(what);
  return {
    status: status === '0x1' ? 'success' : 'reverted',
    blockNumber: quantity(field(value, 'blockNumber'), what),
    logs: logs.map((log: unknown) => plainLog(log, what)),
  };
}

function plainLog(log: unknown, what: string): EvmLog {
  const topics = field(log, 'topics');
  if (!Array.isArray(topics)) bad(what);
  return {
    address: address(field(log, 'address'), what),
    topics: topics.map((topic: unknown) => hexData(topic, what)),
    data: hexData(field(log, 'data'), what),
  };
}

function foundLog(value: unknown): EvmFoundLog {
  const what = 'eth_getLogs';
  const topics = field(value, 'topics');
  if (!Array.isArray(topics)) bad(what);
  const hash = hexData(field(value, 'transactionHash'), what);
  if (hash.length !== 66) bad(what);
  return {
    address: address(field(value, 'address'), what),
    topics: topics.map((topic: unknown) => hexData(topic, what)),
    data: hexData(field(value, 'data'), what),
    transactionHash: hash,
    blockNumber: quantity(field(value, 'blockNumber'), what),
  };
}

function transaction(value: unknown): EvmTransaction {
  const what = 'eth_getTransactionByHash';
  const to = field(value, 'to');
  return {
    from: address(field(value, 'from'), what),
    to: to === null || to === undefined ? null : address(to, what),
    input: hexData(field(value, 'input'), what),
  };
}
