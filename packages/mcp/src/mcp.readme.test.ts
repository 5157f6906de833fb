import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testKeys } from '@yieldrouter/api/testing/startTestApp';
import type { Audience } from '@yieldrouter/mcp-server';
import { LOCAL_TOOLS, audienceMayCall, toolCatalog } from '@yieldrouter/mcp-server';
import type { McpTransportKind } from './testing/connectMcpClient';
import { REPO_ROOT } from './testing/connectMcpClient';
import { renderToolList, replaceToolList } from './testing/renderToolList';
import { useMcpTestApp } from './testing/useMcpTestApp';

// What this package's README tells a user is what they get: the command at the repository root
// after the install alone, and the tools each key is shown, against the real app on PostgreSQL.
const README = join(__dirname, '../README.md');
const AUDIENCES: readonly Audience[] = ['public', 'agent', 'owner', 'keeper'];
const KEYS: Readonly<Record<Audience, string | undefined>> = {
  public: undefined,
  agent: testKeys.agent,
  owner: testKeys.owner,
  keeper: testKeys.keeper,
};

// The README lists the full toolset (SVC_MCP_TOOLSET=full) per key.
const { api, connect } = useMcpTestApp({ SVC_MCP_TOOLSET: 'full' });

const LOCAL_NAMES = LOCAL_TOOLS.map((tool) => tool.name);

/** The route tools listed to `audience` (the local tools, listed to every key, checked apart). */
async function listToolNames(kind: McpTransportKind, audience: Audience): Promise<string[]> {
  const { tools } = await (await connect(kind, KEYS[audience])).listTools();
  const names = tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(LOCAL_NAMES));
  return names.filter((name) => !LOCAL_NAMES.includes(name));
}

async function implementedOperations(): Promise<ReadonlySet<string>> {
  const response = await fetch(`${api().baseUrl}/api/v1/svc/routes`);
  const { routes } = (await response.json()) as {
    routes: { operationId: string; implemented: boolean }[];
  };
  return new Set(routes.filter((route) => route.implemented).map((route) => route.operationId));
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

describe("the README's tool list", () => {
  it('is what each key is shown, over stdio and /mcp: the catalog less what is not implemented', async () => {
    const implemented = await implementedOperations();
    const catalog = toolCatalog(); // the full toolset
    const notImplemented = catalog
      .filter((tool) => !implemented.has(tool.name))
      .map((tool) => tool.name);
    const listed = {} as Record<Audience, readonly string[]>;
    for (const audience of AUDIENCES) {
      const expected = catalog
        .filter((tool) => audienceMayCall(tool.route, audience) && implemented.has(tool.name))
        .map((tool) => tool.name);
      const overStdio = await listToolNames('stdio', audience);
      expect(overStdio).toEqual(expected);
      expect(await listToolNames('http', audience)).toEqual(expected);
      listed[audience] = overStdio;
    }
    const list = renderToolList({ listed, notImplemented });
    const readme = readFileSync(README, 'utf8');
    const rewritten = replaceToolList(readme, list);
    if (process.env['UPDATE_README'] === '1') writeFileSync(README, rewritten);
    else expect(readme).toBe(rewritten);
  }, 60_000);

  it('a hidden tool cannot be called either: it is refused like an unknown one', async () => {
    const implemented = await implementedOperations();
    const hidden = toolCatalog().find(
      (tool) => !implemented.has(tool.name) && audienceMayCall(tool.route, 'owner'),
    );
    if (!hidden) return; // every route is implemented: nothing is hidden
    for (const kind of ['stdio', 'http'] as const) {
      const result = await (
        await connect(kind, testKeys.owner)
      ).callTool({
        name: hidden.name,
        arguments: {},
      });
      expect(result.isError).toBe(true);
      const [content] = result.content as { text: string }[];
      expect(JSON.parse(content?.text ?? '')).toMatchObject({ code: 'UNKNOWN_TOOL' });
    }
  });
});
