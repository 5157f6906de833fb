import { z } from 'zod';

const McpEnv = z.object({
  SVC_API_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
  SVC_API_KEY: z.string().min(1).optional(),
  SVC_MCP_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
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
