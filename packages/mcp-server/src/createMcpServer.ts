import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { OpportunityWatch } from './opportunityWatch';
import { BEST_YIELD_PROMPT, bestYieldPrompt } from './prompts';
import { OPPORTUNITIES_URI, RESOURCES, readResource, resourceByUri } from './resources';
import type { ArgumentGuard, OperationCaller } from './tools/callTool';
import { callTool } from './tools/callTool';
import { IdempotencyWindow } from './tools/idempotencyWindow';
import type { Toolset } from './tools/coreToolset';
import { toolsFor } from './tools/toolCatalog';
import { toolError } from './tools/toolResult';
import { LOCAL_TOOLS } from './tools/verifyPlanTool';
import type { Audience, ToolDefinition } from './tools/toolTypes';

/** Whom the tools are listed for: the key's role and the operations the API implements. */
export interface ToolAccess {
  readonly audience: Audience;
  /** Operation ids the API has handlers for (GET /svc/routes); others are not tools. */
  readonly implemented?: ReadonlySet<string> | undefined;
}

/**
 * Where the API stands for a server started before it: `unreachable` says why a tool call
 * cannot run yet (the access is then a provisional guess, e.g. the owner's tools for a key).
 */
export interface ApiState {
  readonly access: ToolAccess;
  readonly unreachable?: string | undefined;
}

export interface CreateMcpServerOptions {
  /**
   * How every tool, resource and subscription calls the API with the caller's key: the SDK
   * client (stdio) or the API's in-process dispatch (its /mcp endpoint).
   */
  readonly call: OperationCaller;
  /** The key's role (`public` without a key): which tools are listed and callable. */
  readonly audience: Audience;
  /** Operation ids the API has handlers for (GET /svc/routes); others are not tools. */
  readonly implemented?: ReadonlySet<string>;
  /**
   * For a server that may start before the API (stdio): read before every list and call, it
   * replaces `audience` and `implemented`; while `unreachable` is set a call is a tool error
   * API_UNREACHABLE saying so. Call `sendToolListChanged()` when the access changes.
   */
  readonly apiState?: () => Promise<ApiState>;
  /** `core` (default): the core tools; `full`: every tool of the catalog (SVC_MCP_TOOLSET). */
  readonly toolset?: Toolset;
  /** The API's request guard, run on tool arguments before anything is sent. */
  readonly guard?: ArgumentGuard;
  /** Who calls, for derived Idempotency-Keys (two callers never share one). Default ''. */
  readonly idempotencyScope?: string;
  /**
   * Remembers the keys of recent write calls: a retry within its window (one hour from the first
   * call) reuses the first call's key. Share one between the sessions of a process (the API's
   * /mcp does) so a retry from a new session is recognised. Default: one for this server, with
   * `idempotencyWindowMs`.
   */
  readonly idempotency?: IdempotencyWindow;
  /** The window of the default `idempotency`. Default one hour. */
  readonly idempotencyWindowMs?: number;
  /** How often a subscribed opportunity list is re-read. Default 30 s. */
  readonly pollIntervalMs?: number;
  /** Server name and version announced to clients. */
  readonly version?: string;
}

const INSTRUCTIONS = [
  'Yield Router: a non-custodial yield router. Tools read opportunities, fees and positions and',
  'prepare plans. A plan moves nothing: the owner signs its legs with their own wallet, and',
  'money moved only when an answer says submitted: true. Amounts are integer micros strings',
  '("1000000" is 1 USDC). A plan with status "blocked" carries blockers[] to read. Never ask',
  'for, accept or repeat a private key or seed phrase.',
].join(' ');

/**
 * An MCP server whose tools are the route manifest's client operations the audience may call,
 * each calling the API through the SDK; resources for the fee schedule, the error and blocker
 * catalog and the opportunity list (subscribable); and a prompt that chains the deposit tools.
 * Connect it to a transport (stdio, Streamable HTTP).
 *
 * @example
 * const client = createClient({ baseUrl, apiKey });
 * const server = createMcpServer({ call: sdkCaller(client, baseUrl), audience });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: CreateMcpServerOptions): Server {
  const { call } = options;
  const toolset = options.toolset ?? 'core';
  const fixed: ApiState = {
    access: { audience: options.audience, implemented: options.implemented },
  };
  const apiState = options.apiState ?? (() => Promise.resolve(fixed));
  let listed: { access: ToolAccess; tools: readonly ToolDefinition[] } | undefined;
  const toolsOf = (access: ToolAccess): readonly ToolDefinition[] => {
    if (listed?.access !== access) {
      listed = { access, tools: toolsFor(access.audience, access.implemented, toolset) };
    }
    return listed.tools;
  };
  const idempotency =
    options.idempotency ??
    new IdempotencyWindow(
      options.idempotencyWindowMs === undefined ? {} : { windowMs: options.idempotencyWindowMs },
    );
  const server = new Server(
    { name: 'yieldrouter', title: 'Yield Router', version: options.version ?? '0.0.0' },
    {
      capabilities: {
        tools: { listChanged: options.apiState !== undefined },
        resources: { subscribe: true, listChanged: false },
        prompts: { listChanged: false },
      },
      instructions: INSTRUCTIONS,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...toolsOf((await apiState()).access), ...LOCAL_TOOLS].map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: tool.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    // Local tools call nothing: they answer for any key, and while the API is unreachable.
    const local = LOCAL_TOOLS.find((tool) => tool.name === request.params.name);
    if (local) return local.run(request.params.arguments ?? {});
    const state = await apiState();
    const tool = toolsOf(state.access).find(
      (listedTool) => listedTool.name === request.params.name,
    );
    if (!tool) {
      return toolError({
        code: 'UNKNOWN_TOOL',
        message: `No tool ${request.params.name} for this key (toolset ${toolset}).`,
      });
    }
    if (state.unreachable !== undefined) {
      return toolError({ code: 'API_UNREACHABLE', message: state.unreachable });
    }
    return callTool(tool, request.params.arguments ?? {}, {
      call,
      guard: options.guard,
      idempotencyScope: options.idempotencyScope ?? '',
      idempotency,
    });
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: RESOURCES.map(({ uri, name, title, description }) => ({
      uri,
      name,
      title,
      description,
      mimeType: 'application/json',
    })),
  }));
  const resourceOf = (uri: string) => {
    const resource = resourceByUri(uri);
    if (!resource) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${uri}`);
    return resource;
  };
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    readResource(resourceOf(request.params.uri), call),
  );
  const watch = new OpportunityWatch({
    call,
    intervalMs: options.pollIntervalMs ?? 30_000,
    onChange: () => server.sendResourceUpdated({ uri: OPPORTUNITIES_URI }),
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    if (!resourceOf(request.params.uri).subscribable) {
      throw new McpError(ErrorCode.InvalidParams, `${request.params.uri} has no updates`);
    }
    await watch.start();
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    if (request.params.uri === OPPORTUNITIES_URI) watch.stop();
    return {};
  });
  server.onclose = () => watch.stop();

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [BEST_YIELD_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== BEST_YIELD_PROMPT.name) {
      throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${request.params.name}`);
    }
    return bestYieldPrompt(request.params.arguments ?? {});
  });
  return server;
}
