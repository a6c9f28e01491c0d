/**
 * The agent filter over a mixed history, on every engine: Claude Code and Codex sessions of the
 * shared corpus ingested as the providers read them, plus summaries written by the other agents.
 * In process through the API (`app.request`), then through the CLI against a server of the same
 * engine.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createApp } from '../../src/api/app.js';
import { ingestTree } from '../../src/ingest/ingest-tree.js';
import { storeSink } from '../../src/ingest/sink.js';
import { createMigrator } from '../../src/migrations/runner.js';
import type { Store } from '../../src/store/contract.js';
import { putDocs, summaryDoc } from '../../src/store/contract/view-fixtures.js';
import { backfillCorpus, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { describeEngines } from '../support/engines.js';
import { claudeCorpusDir, corpusDir } from '../support/paths.js';

const codexCorpusDir = path.join(corpusDir, 'codex');
const span = (day: string): [string, string] => [`${day}T08:00:00.000Z`, `${day}T09:00:00.000Z`];

describeEngines('agent filter', (engine) => {
  let store: Store;
  let app: OpenAPIHono;
  let claudeSessions = 0;
  let codexSessions = 0;

  beforeAll(async () => {
    store = await engine.open();
    await createMigrator(store).up();
    const ingest = (root: string) =>
      ingestTree({
        root,
        sink: storeSink(store),
        hostname: 'h',
        source: 'backfill',
        provenance: 'backfilled',
      });
    claudeSessions = (await ingest(claudeCorpusDir)).sessions;
    codexSessions = (await ingest(codexCorpusDir)).sessions;
    await putDocs(store, [
      summaryDoc('gemini-1', { span: span('2025-09-01'), agent: 'gemini', models: ['gemini-2.5-pro'] }),
      summaryDoc('opencode-1', {
        span: span('2025-09-02'),
        agent: 'opencode',
        models: ['claude-sonnet-4-5'],
      }),
    ]);
    app = createApp({ store });
  }, 300_000);

  afterAll(() => store?.close());

  const get = async (url: string) => {
    const res = await app.request(url);
    expect(res.status, url).toBe(200);
    return (await res.json()) as { total: number; sessions: Array<{ id: string; agent: string }> };
  };

  it('lists only the sessions of the agent asked for, each saying its agent', async () => {
    expect(claudeSessions).toBeGreaterThan(10);
    expect(codexSessions).toBe(2);
    const all = await get('/api/sessions?limit=500');
    expect(all.total).toBe(claudeSessions + codexSessions + 2);
    for (const [agent, count] of [
      ['claude-code', claudeSessions],
      ['codex', codexSessions],
      ['gemini', 1],
      ['opencode', 1],
    ] as const) {
      const page = await get(`/api/sessions?agent=${agent}&limit=500`);
      expect(page.total, agent).toBe(count);
      expect(page.sessions.every((s) => s.agent === agent)).toBe(true);
    }
    expect((await get('/api/sessions?agent=gemini-cli')).total).toBe(0);
    // With the other filters, in search's and the calendar's sense too.
    expect((await get('/api/sessions?agent=opencode&model=claude-sonnet-4-5')).total).toBe(1);
    expect((await get('/api/sessions?agent=gemini&model=claude-sonnet-4-5')).total).toBe(0);
  });

  it('counts each agent in its facet, and says the filter in the OpenAPI description', async () => {
    const res = await app.request('/api/facets/agent');
    expect(res.status).toBe(200);
    const { values } = (await res.json()) as { values: Array<{ value: string; sessions: number }> };
    expect(Object.fromEntries(values.map((v) => [v.value, v.sessions]))).toEqual({
      'claude-code': claudeSessions,
      codex: codexSessions,
      gemini: 1,
      opencode: 1,
    });
    const doc = (await (await app.request('/api/openapi.json')).json()) as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
    };
    for (const route of ['/api/sessions', '/api/search', '/api/activity'])
      expect(
        doc.paths[route]?.get?.parameters?.map((p) => p.name),
        route,
      ).toContain('agent');
  });

  it('is refused when empty, naming the parameter', async () => {
    const res = await app.request('/api/sessions?agent=');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/agent/);
  });
});

describeEngines('agent filter through the CLI', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: await engine.serverEnv() });
    expect((await backfillCorpus(server, codexCorpusDir)).code).toBe(0);
  }, 300_000);

  afterAll(() => server?.stop());

  it('sessions --agent codex lists the Codex sessions; facets agent counts them', async () => {
    const codex = await runCli(['sessions', '--agent', 'codex', '--json', '--webapi', server.url], {
      env: server.env,
    });
    expect(codex.code, codex.stderr).toBe(0);
    const body = JSON.parse(codex.stdout) as { total: number; sessions: Array<{ agent: string }> };
    expect(body.total).toBe(2);
    expect(body.sessions.map((s) => s.agent)).toEqual(['codex', 'codex']);
    const none = await runCli(['sessions', '--agent', 'claude-code', '--json', '--webapi', server.url], {
      env: server.env,
    });
    expect(JSON.parse(none.stdout).total).toBe(0);
    const facets = await runCli(['facets', 'agent', '--json', '--webapi', server.url], { env: server.env });
    expect(JSON.parse(facets.stdout)).toEqual({
      attribute: 'agent',
      values: [{ value: 'codex', sessions: 2 }],
    });
  });
});
