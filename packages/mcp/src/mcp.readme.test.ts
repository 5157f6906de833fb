import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testKeys } from '@yieldrouter/api/testing/startTestApp';
import type { Audience } from '@yieldrouter/mcp-server';
import type { McpTransportKind } from './testing/connectMcpClient';
import { REPO_ROOT } from './testing/connectMcpClient';
import { useMcpTestApp } from './testing/useMcpTestApp';

// What this package's README tells a user is what they get: the command at the repository root
// after the install alone, against the real app on PostgreSQL.
const KEYS: Readonly<Record<Audience, string | undefined>> = {
  public: undefined,
  agent: testKeys.agent,
  owner: testKeys.owner,
  keeper: testKeys.keeper,
};

const { connect } = useMcpTestApp();

async function listToolNames(kind: McpTransportKind, audience: Audience): Promise<string[]> {
  const { tools } = await (await connect(kind, KEYS[audience])).listTools();
  return tools.map((tool) => tool.name);
}

describe('the command, as a checkout runs it', () => {
  it('the root postinstall builds this package and what it needs (the SDK) through Turbo', () => {
    const root = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(root.scripts['postinstall']).toMatch(/turbo run build --filter=@yieldrouter\/mcp( |$)/);
    expect(root.devDependencies['@yieldrouter/mcp']).toBe('workspace:*');
    // turbo's `build` depends on `^build`: the published SDK this package calls through.
    const turbo = JSON.parse(readFileSync(join(REPO_ROOT, 'turbo.json'), 'utf8')) as {
      tasks: { build: { dependsOn: string[] } };
    };
    expect(turbo.tasks.build.dependsOn).toContain('^build');
  });

  it('`npx @yieldrouter/mcp` at the repository root lists the same tools as /mcp', async () => {
    const overNpx = await listToolNames('npx', 'agent');
    expect(overNpx).toContain('getPosition');
    expect(overNpx).toEqual(await listToolNames('http', 'agent'));
  }, 60_000);
});
