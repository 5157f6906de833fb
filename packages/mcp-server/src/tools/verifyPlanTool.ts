import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlanVerdictDocument, toJsonSchema, VerifyPlanArguments } from '@yieldrouter/schemas';
import type { VerifiablePlan } from '@yieldrouter/verify';
import { verifyPlan } from '@yieldrouter/verify';
import { resultText, toolError } from './toolResult';
import type { JsonSchemaObject, ToolAnnotations } from './toolTypes';

/**
 * A tool that is not a route: it runs where the MCP server runs (the agent's side, for the stdio
 * server) and calls nothing. Listed for every key, and callable while the API is unreachable.
 */
export interface LocalTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema: JsonSchemaObject;
  readonly annotations: ToolAnnotations;
  readonly run: (args: Record<string, unknown>) => CallToolResult;
}

const TITLE = "Verify a plan's unsigned legs offline";

/**
 * `verifyPlan`: the SDK's offline verifier (`@yieldrouter/sdk/verify`) as a tool. Amounts come
 * back as decimal strings.
 */
export const VERIFY_PLAN_TOOL: LocalTool = {
  name: 'verifyPlan',
  title: TITLE,
  description: [
    "Decodes a prepared plan's unsigned legs (EVM, Solana, Sui) without any network call and",
    'checks them against the plan and the owner: each leg is sent by the owner and tagged with',
    'the plan; every destination is the owner, a listed venue, a payee or a disclosed fee',
    "recipient; amounts are the legs'; no approval beyond a leg's amount or to an unlisted",
    "spender; each leg's bytes are those its simulation ran (bytesDigest), which found nothing.",
    'status "rejected" lists reasons: do not sign. "incomplete" with gap simulation_deferred:',
    'a later Solana or Sui leg is simulated only once the leg before it settled; fetch the plan',
    'again then (GET /svc/plans/{planId}) and verify before signing that leg.',
    'Pass venues from GET /svc/packages or the',
    "protocols' own address books, never from the plan.",
  ].join(' '),
  inputSchema: toJsonSchema(VerifyPlanArguments, 'input') as JsonSchemaObject,
  outputSchema: toJsonSchema(PlanVerdictDocument, 'output') as JsonSchemaObject,
  annotations: {
    title: TITLE,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run(args) {
    const parsed = VerifyPlanArguments.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') ?? '';
      return toolError({
        code: 'BAD_REQUEST',
        message: `${field || 'arguments'}: ${issue?.message ?? 'invalid'}`,
        field,
      });
    }
    const { plan, ...options } = parsed.data;
    const verdict = verifyPlan(plan as VerifiablePlan, options);
    const structured = JSON.parse(
      JSON.stringify(verdict, (_, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
    ) as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: resultText(structured) }],
      structuredContent: structured,
    };
  },
};

export const LOCAL_TOOLS: readonly LocalTool[] = [VERIFY_PLAN_TOOL];
