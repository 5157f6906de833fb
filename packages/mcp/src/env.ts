import { z } from 'zod';
import { ToolsetSetting } from '@yieldrouter/mcp-server';

const McpEnv = z.object({
  SVC_API_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
  SVC_API_KEY: z.string().min(1).optional(),
  SVC_MCP_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** `core` (default, at most 20 tools) or `full` (every tool of the catalog). */
  SVC_MCP_TOOLSET: ToolsetSetting,
  /** The longest wait between two attempts to reach the API while it is not up. */
  SVC_MCP_RETRY_MAX_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
});
export type McpEnv = z.infer<typeof McpEnv>;

/** The stdio server's settings, from its environment. */
export function readMcpEnv(env: NodeJS.ProcessEnv = process.env): McpEnv {
  const parsed = McpEnv.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${String(issue?.path[0])}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
