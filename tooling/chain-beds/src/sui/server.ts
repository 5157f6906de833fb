import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MethodContext } from './methods';
import { chainIdentifier, METHODS } from './methods';
import { RpcMethodError } from './rpcError';
import type {
  RecordTransactionInput,
  SuiFakeTransaction,
  SuiFakeObjectRef,
  SuiFakeSharedRef,
} from './state';
import { refOf, SuiFakeState } from './state';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { AddCetusPoolParameters, CetusPoolPackage, SuiFakePool } from './cetusPool';
import { addCetusPool } from './cetusPool';
import type { AddCctpParameters, SuiFakeCctp } from './cctp';
import { addCctp } from './cctp';
import type { AddSuilendParameters, SuiFakeSuilend } from './suilendMarket';
import { addSuilend } from './suilendMarket';
import type { AddNaviParameters, SuiFakeNavi } from './naviPool';
import { addNavi } from './naviPool';
import type { AddScallopParameters, SuiFakeScallop } from './scallopMarket';
import { addScallop } from './scallopMarket';

/** A running Sui JSON-RPC fake and the helpers a test uses to lay down chain state. */
export interface SuiFake {
  /** `http://127.0.0.1:<port>`: give it to `SuiJsonRpcClient` or an adapter as the RPC URL. */
  readonly rpcUrl: string;
  /** What `sui_getChainIdentifier` answers (first 4 bytes of the genesis digest, hex). */
  readonly chainIdentifier: string;
  /** What `suix_getReferenceGasPrice` answers; execution refuses a lower gas price. */
  readonly referenceGasPrice: bigint;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
  /** Replaces the owner's coins of `coinType` with one coin of `amount` (base units). */
  setBalance(owner: string, coinType: string, amount: bigint): SuiFakeObjectRef | undefined;
  /** Adds one more coin of `coinType` for the owner; returns its ref. */
  addCoin(owner: string, coinType: string, amount: bigint): SuiFakeObjectRef;
  /** Adds a shared object and returns its shared ref. */
  addSharedObject(input: {
    type: string;
    objectId?: string;
    initialSharedVersion?: bigint;
  }): SuiFakeSharedRef;
  /**
   * Records (or overwrites) a transaction's effects, and with `transaction` its input as
   * `showInput` prints it; returns the digest.
   */
  recordTransaction(input: RecordTransactionInput): string;
  /**
   * Declares a Move function's parameter types (no trailing `&mut TxContext`), so `showInput`
   * prints the pure inputs passed to it decoded, with their `valueType`, as a node does.
   */
  defineMoveFunction(target: string, parameters: readonly string[]): void;
  /** A transaction the fake knows, with the bytes and signatures when it was executed. */
  getTransaction(digest: string): SuiFakeTransaction | undefined;
  /** The current ref of an object (versions move when a transaction uses it). */
  getObjectRef(objectId: string): SuiFakeObjectRef | undefined;
  /** The JSON-RPC methods called so far, in order. */
  calls(): readonly string[];
  /**
   * Adds a Cetus-shaped constant-product pool the fake runs (see `addCetusPool`); pass an
   * earlier pool to add another under the same package and GlobalConfig.
   */
  addCetusPool(parameters: AddCetusPoolParameters, existing?: CetusPoolPackage): SuiFakePool;
  /** Adds Circle's CCTP v2 packages for Sui, run for burns and mints (see `addCctp`). */
  addCctp(parameters: AddCctpParameters): SuiFakeCctp;
  /** Adds Suilend's lending market with a USDC reserve, run as Suilend does (see `addSuilend`). */
  addSuilend(parameters: AddSuilendParameters): SuiFakeSuilend;
  /** Adds Navi's lending core with a USDC pool, run as Navi does (see `addNavi`). */
  addNavi(parameters: AddNaviParameters): SuiFakeNavi;
  /** Adds Scallop's market with a USDC pool, run as Scallop does (see `addScallop`). */
  addScallop(parameters: AddScallopParameters): SuiFakeScallop;
}

interface JsonRpcRequest {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

type JsonRpcId = string | number | null;

function rpcError(id: JsonRpcId, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function requestId(value: unknown): JsonRpcId {
  return typeof value === 'string' || typeof value === 'number' ? value : null;
}

async function answer(request: unknown, context: MethodContext, log: string[]) {
  const call = (request && typeof request === 'object' ? request : {}) as JsonRpcRequest;
  const id = requestId(call.id);
  if (call.jsonrpc !== '2.0' || typeof call.method !== 'string') {
    return rpcError(id, -32600, 'Invalid Request');
  }
  log.push(call.method);
  const handler = METHODS[call.method];
  if (!handler) return rpcError(id, -32601, 'Method not found');
  if (call.params !== undefined && !Array.isArray(call.params)) {
    return rpcError(id, -32602, 'Invalid params: params must be an array');
  }
  try {
    const result = await handler(context, (call.params ?? []) as unknown[]);
    return { jsonrpc: '2.0', id, result };
  } catch (error) {
    if (error instanceof RpcMethodError) return rpcError(id, error.code, error.message);
    return rpcError(id, -32603, error instanceof Error ? error.message : String(error));
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  context: MethodContext,
  log: string[],
) {
  const body = await readBody(request);
  let parsed: unknown;
  let reply: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    reply = rpcError(null, -32700, 'Parse error');
  }
  if (reply === undefined) {
    reply = Array.isArray(parsed)
      ? await Promise.all(parsed.map((item: unknown) => answer(item, context, log)))
      : await answer(parsed, context, log);
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(reply));
}

/**
 * Starts an in-memory Sui JSON-RPC 2.0 fake on 127.0.0.1 (random port). Responses follow the
 * field names and types of Sui's JSON-RPC API as `@mysten/sui`'s `SuiJsonRpcClient` reads them;
 * request ids are echoed; unknown methods answer -32601. Move code runs only for functions the
 * fake defines (a bed pool's swap, see `addCetusPool` and `execute.ts`).
 */
export async function startSuiFake(options: { referenceGasPrice?: bigint } = {}): Promise<SuiFake> {
  const state = new SuiFakeState();
  const log: string[] = [];
  const context: MethodContext = { state, referenceGasPrice: options.referenceGasPrice ?? 1000n };
  const server = createServer((request, response) => {
    serve(request, response, context, log).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const bound = server.address();
  if (!bound || typeof bound === 'string') throw new Error('sui fake: no port');

  return {
    rpcUrl: `http://127.0.0.1:${bound.port}`,
    chainIdentifier: chainIdentifier(state),
    referenceGasPrice: context.referenceGasPrice,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    setBalance: (owner, coinType, amount) => state.setBalance(owner, coinType, amount),
    addCoin: (owner, coinType, amount) => state.addCoin(owner, coinType, amount),
    addSharedObject: (input) => state.addSharedObject(input),
    recordTransaction: (input) => state.recordTransaction(input),
    defineMoveFunction: (target, parameters) => state.defineMoveFunction(target, parameters),
    getTransaction: (digest) => state.transactions.get(digest),
    getObjectRef: (objectId) => {
      const object = state.objects.get(normalizeSuiAddress(objectId));
      return object ? refOf(object) : undefined;
    },
    calls: () => [...log],
    addCetusPool: (parameters, existing) => addCetusPool(state, parameters, existing),
    addCctp: (parameters) => addCctp(state, parameters),
    addSuilend: (parameters) => addSuilend(state, parameters),
    addNavi: (parameters) => addNavi(state, parameters),
    addScallop: (parameters) => addScallop(state, parameters),
  };
}
