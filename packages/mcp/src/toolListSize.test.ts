import { countTokens } from 'gpt-tokenizer';
import type { Toolset } from '@yieldrouter/mcp-server';
import { toolsFor } from '@yieldrouter/mcp-server';

// What a host pays to offer the tools, in tokens (gpt-tokenizer, o200k_base, the encoding of
// current OpenAI models; other models' tokenizers differ by some percent): names, descriptions
// and input schemas as tools/list sends them, and the output schemas apart (many hosts do not
// show them to the model). An owner key sees the most tools. The numbers are printed for the
// docs (packages/mcp/README.md, docs/clients.md).

interface ToolListSize {
  readonly tools: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly outputBytes: number;
}

function sizeOf(toolset: Toolset): ToolListSize {
  const tools = toolsFor('owner', undefined, toolset);
  const listed = tools.map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema,
  }));
  const outputs = JSON.stringify(tools.map((tool) => tool.outputSchema ?? null));
  return {
    tools: tools.length,
    inputTokens: countTokens(JSON.stringify(listed)),
    outputTokens: countTokens(outputs),
    outputBytes: Buffer.byteLength(outputs),
  };
}

describe('the tool list size', () => {
  it('the default toolset fits a host: at most 20 tools, names + descriptions + inputs', () => {
    const core = sizeOf('core');
    const full = sizeOf('full');
    process.stdout.write(
      [
        'tool list size (owner key; gpt-tokenizer o200k_base):',
        ...(['core', 'full'] as const).map((toolset) => {
          const size = toolset === 'core' ? core : full;
          return (
            `  ${toolset}: ${size.tools} tools, ${size.inputTokens} tokens (names, ` +
            `descriptions, input schemas); output schemas ${size.outputTokens} tokens ` +
            `(${(size.outputBytes / 1024).toFixed(0)} kB)`
          );
        }),
        '',
      ].join('\n'),
    );
    expect(core.tools).toBeLessThanOrEqual(20);
    expect(core.inputTokens).toBeLessThan(full.inputTokens / 2);
    // A budget a change to the core tools' descriptions or inputs must not silently exceed.
    expect(core.inputTokens).toBeLessThanOrEqual(6000);
  });
});
