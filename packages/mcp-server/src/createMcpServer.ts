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
import { toolsFor } from './tools/toolCatalog';
import type { Audience } from './tools/toolTypes';

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
 * const server = createMcpServer({ call: sdkCaller(createClient({ baseUrl, apiKey })), audience });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: CreateMcpServerOptions): Server {
  const { call } = options;
  const tools = toolsFor(options.audience, options.implemented);
  const toolByName = new Map(tools.map((tool) => [tool.name, tool]));
  const idempotency =
    options.idempotency ??
    new IdempotencyWindow(
      options.idempotencyWindowMs === undefined ? {} : { windowMs: options.idempotencyWindowMs },
    );
  const server = new Server(
    { name: 'yieldrouter', title: 'Yield Router', version: options.version ?? '0.0.0' },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: true, listChanged: false },
        prompts: { listChanged: false },
      },
      instructions: INSTRUCTIONS,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: tool.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolByName.get(request.params.name);
    if (!tool) {
      return {
        isError: true,
        content: [{ type: 'text', text: `No tool ${request.params.name} for this key.` }],
      };
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
