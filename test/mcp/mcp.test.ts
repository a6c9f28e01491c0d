/**
 * The MCP server (issue 37) through the SDK's own Client, against a real `transcripts serve`
 * loaded with the corpus: over stdio (`transcripts mcp --webapi URL`, a child process) and over
 * Streamable HTTP (`/api/mcp` in the service). Every tool's structured content is checked against
 * what the HTTP API answers for the same question; the largest session is read page by page and
 * put back together.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the answers are JSON, read loosely and compared whole */
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binPath,
  cleanEnv,
  getJson,
  runCli,
  startTestServer,
  type TestServer,
} from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { renderEntry, trimText } from '../../src/mcp/compact.js';
import type { ProjectedEntry } from '../../src/core/documents.js';

/** The largest corpus session (812 lines, 4.2 MB). */
const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
const TOOLS = [
  'activity',
  'get_session',
  'get_turns',
  'list_sessions',
  'read_transcript',
  'search',
  'totals',
];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ corpus: testEngine('sqlite') });
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

function stdioClient(url: string, env: Record<string, string> = cleanEnv()) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, 'mcp', '--webapi', url],
    env,
    stderr: 'pipe',
  });
  return { transport, client: new Client({ name: 'mcp-test', version: '1.0.0' }) };
}

function httpClient(url: string, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), {
    requestInit: { headers },
  });
  return { transport, client: new Client({ name: 'mcp-test', version: '1.0.0' }) };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

async function api<T = any>(path: string): Promise<T> {
  const r = await getJson<T>(server, path);
  expect(r.status, path).toBe(200);
  return r.body;
}

/** Every entry of a session's file, through the API. */
async function allEntries(id: string): Promise<ProjectedEntry[]> {
  const out: ProjectedEntry[] = [];
  for (let offset = 0; ;) {
    const page = await api(`/api/sessions/${id}/transcript?offset=${offset}&limit=1000`);
    out.push(...page.entries);
    offset += page.entries.length;
    if (page.entries.length === 0 || offset >= page.total) return out;
  }
}

describe.each(['stdio', 'http'] as const)('over %s', (kind) => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const c = kind === 'stdio' ? stdioClient(server.url) : httpClient(server.url);
    await c.client.connect(c.transport);
    client = c.client;
    close = () => c.client.close();
  });
  afterAll(async () => {
    await close?.();
  });

  it('lists the tools, each with a description and an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
    const by = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
    expect(Object.keys(by.read_transcript!.properties!).sort()).toEqual(
      ['budget', 'cursor', 'file', 'id', 'role', 'thinking'].sort(),
    );
    expect(by.read_transcript!.required).toEqual(['id']);
    expect((by.read_transcript!.properties as any).role.enum).toEqual(['both', 'you', 'claude']);
    expect((by.read_transcript!.properties as any).budget).toMatchObject({ minimum: 2000, maximum: 50000 });
    expect(by.search!.required).toEqual(['query']);
    for (const name of ['search', 'list_sessions', 'get_turns', 'totals', 'activity'])
      expect(Object.keys(by[name]!.properties!), name).toEqual(
        expect.arrayContaining(['project', 'cwd', 'model', 'hostname', 'source', 'from', 'to']),
      );
    expect(Object.keys(by.list_sessions!.properties!)).toEqual(
      expect.arrayContaining(['sort', 'dir', 'limit']),
    );
    expect(by.get_session!.required).toEqual(['id']);
  });

  it('search: the API hits, each with a link into /app', async () => {
    const r = await call(client, 'search', { query: 'error', limit: 5 });
    expect(r.isError).toBeFalsy();
    const want = await api('/api/search?q=error&limit=5&offset=0');
    expect(want.hits.length).toBe(5);
    expect(r.structuredContent).toEqual({
      ...want,
      hits: want.hits.map((h: any) => ({
        ...h,
        link: `${server.url}/app/sessions/${h.sessionId}?${h.file === 'transcript.jsonl' ? '' : `file=${encodeURIComponent(h.file)}&`}entry=${h.index}&q=error`,
      })),
    });
    const text = textOf(r);
    expect(text).toMatch(/hits for "error", 1–5 shown/);
    for (const h of want.hits) expect(text).toContain(h.sessionId);
    expect(text).toMatch(/«error»/i);
    expect(text).toMatch(/More: call search again with offset 5/);
  });

  it('list_sessions: the list with its filters and order', async () => {
    const r = await call(client, 'list_sessions', { sort: 'tokens', limit: 7 });
    expect(r.structuredContent).toEqual(await api('/api/sessions?sort=tokens&dir=desc&limit=7&offset=0'));
    const filtered = await call(client, 'list_sessions', { project: 'Demo', limit: 50 });
    const want = await api('/api/sessions?project=Demo&sort=lastActivity&dir=desc&limit=50&offset=0');
    expect(want.total).toBeGreaterThan(0);
    expect(filtered.structuredContent).toEqual(want);
    expect(textOf(filtered)).toContain(want.sessions[0].id);
  });

  it('get_session: the summary with cost, files and subagents, found by a prefix too', async () => {
    const want = await api(`/api/sessions/${BIG}`);
    const r = await call(client, 'get_session', { id: BIG.slice(0, 8) });
    expect(r.structuredContent).toEqual(want);
    const text = textOf(r);
    expect(text).toContain(`id: ${BIG}`);
    expect(text).toMatch(/cost: \$[\d,.]+/);
    expect(text).toContain(`${want.subagents} subagents`);
    expect(text).toContain('transcript.jsonl');
  });

  it('get_turns: prompts across sessions, cut to the budget', async () => {
    const r = await call(client, 'get_turns', { role: 'you', limit: 30 });
    const want = await api('/api/turns?role=user&limit=30&offset=0');
    const s = r.structuredContent as any;
    expect(s.total).toBe(want.total);
    expect(s.turns.length).toBeGreaterThan(0);
    expect(s.turns).toEqual(
      want.turns.slice(0, s.turns.length).map((t: any) => ({ ...t, text: trimText(t.text, 2000) })),
    );
    expect(s.turns.reduce((n: number, t: any) => n + t.text.length, 0)).toBeLessThanOrEqual(20_000);
    expect(s.nextOffset).toBe(s.turns.length < want.total ? s.turns.length : null);
    const answers = await call(client, 'get_turns', { role: 'claude', project: 'Demo', limit: 3 });
    expect((answers.structuredContent as any).total).toBe(
      (await api('/api/turns?role=assistant&project=Demo&limit=3')).total,
    );
  });

  it('totals and activity: what the API answers for the same filters', async () => {
    const t = await call(client, 'totals', { from: '2025-08-01', to: '2025-08-31' });
    expect(t.structuredContent).toEqual(await api('/api/totals?from=2025-08-01&to=2025-08-31'));
    expect(textOf(t)).toMatch(/^\d+ sessions · /);
    const a = await call(client, 'activity', { from: '2025-06-01', to: '2025-12-31' });
    const want = await api('/api/activity?from=2025-06-01&to=2025-12-31');
    expect(want.days.length).toBeGreaterThan(0);
    expect(a.structuredContent).toEqual({
      from: want.from,
      to: want.to,
      days: want.days.map(({ items: _items, ...d }: any) => d),
    });
    expect(textOf(a)).toContain(want.days[0].day);
  });

  it('read_transcript: the largest session in bounded pages that put together give all of it', async () => {
    const entries = await allEntries(BIG);
    const whole = entries.map((e) => renderEntry(e)).join('');
    let text = '';
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await call(client, 'read_transcript', { id: BIG, ...(cursor ? { cursor } : {}) });
      expect(r.isError, textOf(r)).toBeFalsy();
      const s = r.structuredContent as any;
      expect(s.text.length).toBeLessThanOrEqual(20_000);
      expect(textOf(r).length).toBeLessThan(20_500);
      expect(s.total).toBe(entries.length);
      text += s.text;
      pages++;
      if (!s.nextCursor) break;
      expect(textOf(r)).toContain(`cursor "${s.nextCursor}"`);
      cursor = s.nextCursor;
    }
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(whole.length / 20_000));
    expect(text).toBe(whole);
    // Tool calls one line each, results trimmed, thinking left out.
    expect(text).toMatch(/\n→ Bash: /);
    expect(text).not.toContain('[thinking]');
    const withThinking = await call(client, 'read_transcript', { id: BIG, thinking: true, budget: 50_000 });
    expect((withThinking.structuredContent as any).text).toContain('[thinking]');
  });

  it('read_transcript by role: your prompts only', async () => {
    const r = await call(client, 'read_transcript', { id: BIG, role: 'you', budget: 50_000 });
    const s = r.structuredContent as any;
    const turns = await api(`/api/sessions/${BIG}/turns?role=user&limit=1000`);
    expect(s.total).toBe(turns.total);
    expect(s.text.startsWith(`[#${turns.turns[0].index} · You`)).toBe(true);
    expect(s.file).toBeNull();
  });

  it('the session resource: Markdown, paged, giving the API Markdown back', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['transcripts://session/{id}']);
    const listed = await client.listResources();
    expect(listed.resources.length).toBeGreaterThan(0);
    expect(listed.resources[0]!.uri).toMatch(/^transcripts:\/\/session\//);
    const res = await fetch(`${server.url}/api/sessions/${BIG}/markdown`);
    const whole = await res.text();
    let uri: string | null = `transcripts://session/${BIG}`;
    let text = '';
    let pages = 0;
    while (uri) {
      pages++;
      const r = await client.readResource({ uri });
      const page = (r.contents[0] as { text: string }).text;
      expect(r.contents[0]!.mimeType).toBe('text/markdown');
      const m = /\n\n<!-- continued at (\S+) -->\n$/.exec(page);
      text += m ? page.slice(0, m.index) : page;
      expect((m ? page.slice(0, m.index) : page).length).toBeLessThanOrEqual(20_000);
      uri = m ? m[1]! : null;
    }
    expect(text).toBe(whole);
    expect(pages).toBe(Math.ceil(whole.length / 20_000));
    await expect(client.readResource({ uri: 'transcripts://session/ffffffff-0000' })).rejects.toThrow(
      /No session has the id or prefix/,
    );
  });

  it('bad arguments and an unknown id are tool errors that say what to do', async () => {
    const zero = await call(client, 'list_sessions', { limit: 0 });
    expect(zero.isError).toBe(true);
    expect(textOf(zero)).toMatch(/limit must be at least 1/);
    const badRole = await call(client, 'read_transcript', { id: BIG, role: 'me' });
    expect(badRole.isError).toBe(true);
    expect(textOf(badRole)).toMatch(/role must be both, you or claude/);
    const noQuery = await call(client, 'search', {});
    expect(noQuery.isError).toBe(true);
    expect(textOf(noQuery)).toMatch(/query/);
    const unknown = await call(client, 'get_session', { id: 'ffffffff-0000' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(
      /No session has the id or prefix "ffffffff-0000".*search or list_sessions/,
    );
    const cursor = await call(client, 'read_transcript', { id: BIG, cursor: 'page two' });
    expect(textOf(cursor)).toMatch(/nextCursor of the previous page/);
    const noFile = await call(client, 'read_transcript', { id: BIG, file: 'subagents/agent-none.jsonl' });
    expect(noFile.isError).toBe(true);
    expect(textOf(noFile)).toMatch(/no transcript file.*get_session lists the session's files/);
    const byPrefix = await call(client, 'read_transcript', { id: BIG.slice(0, 8), budget: 2000 });
    expect((byPrefix.structuredContent as any).sessionId).toBe(BIG);
    const date = await call(client, 'totals', { from: 'last tuesday' });
    expect(date.isError).toBe(true);
    expect(textOf(date)).toMatch(/refused the arguments: .*from.*Correct that argument/);
    // Still serving after all that.
    expect((await call(client, 'totals', {})).isError).toBeFalsy();
  });
});

describe('stdio, the instance stopped halfway', () => {
  it('answers a tool error naming what to do, and keeps running', async () => {
    const own = await startTestServer();
    const c = stdioClient(own.url);
    try {
      await c.client.connect(c.transport);
      const before = await call(c.client, 'list_sessions', {});
      expect(before.isError).toBeFalsy();
      await own.stop();
      const after = await call(c.client, 'list_sessions', {});
      expect(after.isError).toBe(true);
      expect(textOf(after)).toMatch(
        /not answering: cannot reach the transcripts API at .* Start it with `transcripts serve`/,
      );
      const again = await call(c.client, 'read_transcript', { id: BIG });
      expect(again.isError).toBe(true);
      expect(c.transport.pid).not.toBeNull();
      expect(() => process.kill(c.transport.pid!, 0)).not.toThrow();
      expect((await c.client.listTools()).tools.length).toBe(TOOLS.length);
    } finally {
      await c.client.close();
      await own.stop();
    }
  });
});

describe('mcp --print-config', () => {
  it('prints the Claude Code entry and the claude mcp add command', async () => {
    const r = await runCli(['mcp', '--print-config', '--webapi', 'http://127.0.0.1:7777']);
    expect(r.code, r.stderr).toBe(0);
    const json = /\{[\s\S]*?\n\}/.exec(r.stdout)![0];
    const entry = JSON.parse(json).mcpServers.transcripts;
    expect(entry).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [binPath, 'mcp', '--webapi', 'http://127.0.0.1:7777'],
    });
    expect(r.stdout).toContain(
      `claude mcp add transcripts --scope user -- ${process.execPath} ${binPath} mcp`,
    );
    expect(r.stdout).toContain(
      'claude mcp add --transport http transcripts --scope user http://127.0.0.1:7777/api/mcp',
    );
  });
});

/** POST with an explicit Host header (fetch does not let us set it). */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const u = new URL(`${url}/api/mcp`);
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  });
}

describe('HTTP off loopback', () => {
  const token = 'mcp-test-token-0123456789abcdef';
  let own: TestServer;
  beforeAll(async () => {
    own = await startTestServer({ env: { WEBAPI_HOST: '0.0.0.0', CT_API_TOKEN: token } });
  });
  afterAll(async () => {
    await own?.stop();
  });

  it('refuses without the token and works with it', async () => {
    const denied = httpClient(own.url);
    await expect(denied.client.connect(denied.transport)).rejects.toThrow(/401|bearer token/i);
    const wrong = httpClient(own.url, { authorization: 'Bearer nope' });
    await expect(wrong.client.connect(wrong.transport)).rejects.toThrow(/401|token is wrong/i);
    const ok = httpClient(own.url, { authorization: `Bearer ${token}` });
    await ok.client.connect(ok.transport);
    try {
      const r = await call(ok.client, 'list_sessions', {});
      expect(r.isError, textOf(r)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ total: 0, sessions: [] });
    } finally {
      await ok.client.close();
    }
  });

  it('refuses a foreign Host header', async () => {
    expect(await postWithHost(own.url, 'evil.example')).toBe(403);
  });

  it('stdio reaches it with CT_API_TOKEN, and says what to do without', async () => {
    const without = stdioClient(own.url);
    await without.client.connect(without.transport);
    try {
      const r = await call(without.client, 'totals', {});
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/CT_API_TOKEN/);
    } finally {
      await without.client.close();
    }
    const withToken = stdioClient(own.url, cleanEnv({ CT_API_TOKEN: token }));
    await withToken.client.connect(withToken.transport);
    try {
      expect((await call(withToken.client, 'totals', {})).structuredContent).toMatchObject({ sessions: 0 });
    } finally {
      await withToken.client.close();
    }
  });
});
