import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Audience, IdempotencyWindow, Toolset } from '@yieldrouter/mcp-server';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { API_VERSION } from '@yieldrouter/schemas';
import { ApiError } from '../http/apiError';
import type { KeyResolver } from '../http/auth';
import { authenticate } from '../http/auth';
import type { AuthFailures } from '../http/authFailures';
import { findRefusal } from '../http/requestGuard';
import { inProcessCaller } from './inProcessCaller';

export const MCP_PATH = '/mcp';

export interface McpEndpointOptions {
  /** The app itself: tool calls run its REST routes in process. */
  readonly app: (req: IncomingMessage, res: ServerResponse) => void;
  readonly routes: readonly RouteDefinition[];
  readonly keys: KeyResolver;
  readonly authFailures: AuthFailures;
  readonly implemented: () => ReadonlySet<string>;
  /** How often a subscribed opportunity list is re-read (SVC_MCP_POLL_MS). */
  readonly pollIntervalMs: number;
  /** The tools listed: `core` or `full` (SVC_MCP_TOOLSET). */
  readonly toolset: Toolset;
  /** Open sessions at most; an initialize beyond it is refused 503 (default 1000). */
  readonly maxSessions?: number;
  /** A session with no request for this long is closed (default 30 min). */
  readonly idleMs?: number;
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** The X-API-Key the session was opened with (hashed): every request must carry the same. */
  readonly keyHash: string;
  lastSeen: number;
}

// Authenticates like a route any key may call: the key's role then selects the tools.
const ANY_KEY = {
  operationId: 'mcp',
  method: 'post',
  path: MCP_PATH,
  versioned: false,
  auth: ['owner', 'agent', 'keeper'],
  summary: 'MCP endpoint',
  tags: [],
  request: {},
  responses: {},
} as const satisfies RouteDefinition;

// The MCP server and its SDK (the tools' schemas; the plan verifier, with viem and
// @solana/web3.js) are loaded by the first request to /mcp, not with the app: most processes
// that build the app (every API test file) never serve one.
const loadMcp = () =>
  Promise.all([
    import('@yieldrouter/mcp-server'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([server, transport, types]) => ({
    createMcpServer: server.createMcpServer,
    IdempotencyWindow: server.IdempotencyWindow,
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
  }));
let mcpModules: ReturnType<typeof loadMcp> | undefined;
// The modules, loaded once; a load that failed (a file-descriptor limit, say) is forgotten, so
// the next request loads them again instead of failing like the first for the process's life.
const mcpLoaded = () =>
  (mcpModules ??= loadMcp().catch((error: unknown) => {
    mcpModules = undefined;
    throw error;
  }));

const hashOf = (key: string | undefined) =>
  createHash('sha256')
    .update(key ?? '')
    .digest('hex');

function rpcError(res: Response, status: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/**
 * The Streamable HTTP transport of the MCP server at /mcp. The key comes from X-API-Key and is
 * authenticated like on the REST routes (none: the public tools); a session keeps the key it
 * was opened with and every tool call runs the REST route in process with it, so scopes,
 * rate limits, the request guard and idempotency are the routes' own.
 */
export function mcpEndpoint(options: McpEndpointOptions): RequestHandler {
  const sessions = new Map<string, Session>();
  const routes = new Map(options.routes.map((route) => [route.operationId, route]));
  const idleMs = options.idleMs ?? 30 * 60_000;
  // One for every session: a model's retry from a new session (its client reconnected) within
  // the hour still reuses the first call's Idempotency-Key. Scopes keep callers apart.
  let idempotency: IdempotencyWindow | undefined;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const session of sessions.values()) {
      if (now - session.lastSeen > idleMs) void session.transport.close();
    }
  }, 60_000);
  sweep.unref();

  async function open(req: Request, apiKey: string | undefined): Promise<Session> {
    const mcp = await mcpLoaded();
    const window = (idempotency ??= new mcp.IdempotencyWindow());
    const audience: Audience = apiKey ? (await authenticate(ANY_KEY, req, options)).role : 'public';
    if (sessions.size >= (options.maxSessions ?? 1000)) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'too many open MCP sessions; retry later');
    }
    const remoteAddress = req.ip ?? '127.0.0.1';
    const keyHash = hashOf(apiKey);
    const transport: StreamableHTTPServerTransport = new mcp.StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A call's answer as one JSON body, not an SSE stream per POST (notifications keep to the
      // session's GET stream): less to frame on both sides.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, keyHash, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = mcp.createMcpServer({
      call: inProcessCaller({ app: options.app, routes, apiKey, remoteAddress }),
      audience,
      implemented: options.implemented(),
      guard: findRefusal,
      idempotencyScope: apiKey ? keyHash : `public:${remoteAddress}`,
      idempotency: window,
      pollIntervalMs: options.pollIntervalMs,
      toolset: options.toolset,
      version: API_VERSION,
    });
    await server.connect(transport);
    return { transport, keyHash, lastSeen: Date.now() };
  }

  return (req, res, next) => {
    const run = async () => {
      const apiKey = req.header('x-api-key') || undefined;
      const sessionId = req.header('mcp-session-id');
      if (sessionId === undefined) {
        const { isInitializeRequest } = await mcpLoaded();
        if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
          rpcError(res, 400, 'no Mcp-Session-Id: send initialize first');
          return;
        }
        await (await open(req, apiKey)).transport.handleRequest(req, res, req.body);
        return;
      }
      const session = sessions.get(sessionId);
      if (!session) {
        rpcError(res, 404, 'unknown or closed MCP session: initialize again');
        return;
      }
      if (session.keyHash !== hashOf(apiKey)) {
        throw new ApiError('UNAUTHORIZED', 'this MCP session was opened with another X-API-Key');
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, req.body);
    };
    run().catch(next);
  };
}
