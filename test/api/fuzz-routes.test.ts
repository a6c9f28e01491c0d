/**
 * The fuzz suite of issue 42: every route `/api/openapi.json` describes gets a fixed set of hostile
 * values — negative, huge, NaN, arrays (a parameter given twice), unicode, NUL, path traversal,
 * FTS syntax — in each path parameter, each query parameter and each member of a JSON body, on
 * every engine. Answers are counted by status; any 5xx, or any answer slower than 2 s, fails.
 *
 * In process (`app.request`) over a real store with every migration applied and one session
 * seeded, so each value reaches the real validation, handler and engine. Bounded: about two
 * thousand requests per engine, a few seconds each on an idle machine.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { createApp } from '../../src/api/app.js';
import type { Store } from '../../src/store/contract.js';
import { createMigrator } from '../../src/migrations/runner.js';
import { describeEngines } from '../support/engines.js';
import { twoEntrySummary } from '../support/two-entry-summary.js';

const SID = 'fuzz-session';
const T0 = '2025-07-01T10:00:00.000Z';
const T1 = '2025-07-01T10:30:00.000Z';

/** Hostile values for a string position (query value, path segment, header). */
const HOSTILE: string[] = [
  '-1',
  '0',
  '1.5',
  '2147483648',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '1e309',
  '0x1F',
  '',
  ' ',
  '🎉💥',
  'é\u0301\u200b',
  '\u0000',
  'a\u0000b',
  '../../etc/passwd',
  '..\\..\\windows',
  '/etc/passwd',
  '%00',
  '"unterminated',
  'a OR b NOT c* NEAR(x y) ^ -z :',
  ')(*',
  '0001-01-01',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  'a'.repeat(256),
  'x'.repeat(3000),
];

/** Hostile values for a member of a JSON body. */
const HOSTILE_JSON: unknown[] = [
  -1,
  1e308,
  2 ** 31,
  Number.MAX_SAFE_INTEGER + 2,
  'NaN',
  null,
  true,
  [],
  {},
  [null],
  [[-8640000000000000, 8640000000000000]],
  '🎉\u0000',
  '../../etc/passwd',
  'x'.repeat(10_000),
  { __proto__: { polluted: true }, constructor: { prototype: {} } },
];

/** Whole JSON bodies, hostile as such. */
const HOSTILE_BODIES: string[] = ['', 'null', '[]', '"x"', '1', '{', '{"a":', '{}'.repeat(3), '\u0000', '🎉'];

/** A valid value for each path parameter, so one hostile value at a time reaches the handler. */
const PATH_DEFAULTS: Record<string, string> = {
  id: SID,
  sessionId: SID,
  index: '0',
  attribute: 'model',
  name: 'transcript.jsonl',
};
/** Query parameters a route needs (`q` of search). */
const REQUIRED_QUERY: Record<string, string> = { q: 'hello' };

interface Param {
  in: string;
  name: string;
  required?: boolean;
}
interface Operation {
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: object } }> };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, { properties?: Record<string, unknown> }> };
}

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function summary() {
  return twoEntrySummary(SID, {
    first: Date.parse(T0),
    last: Date.parse(T1),
    cwd: '/work/fuzz',
    title: 'fuzz',
    transcriptBytes: 40,
  });
}

const LINES = `{"type":"user","timestamp":"${T0}"}\n{"type":"assistant","timestamp":"${T1}"}\n`;

function chunk() {
  const at = (index: number, role: string, text: string, timestamp: string, byteStart: number) => ({
    index,
    byteStart,
    byteEnd: byteStart + 10,
    role,
    kind: role,
    text,
    timestamp,
  });
  return {
    _id: `chunk:${SID}:transcript.jsonl:000000000000`,
    type: 'chunk',
    sessionId: SID,
    timestamp: T0,
    file: 'transcript.jsonl',
    byteStart: 0,
    byteEnd: LINES.length,
    firstIndex: 0,
    entryCount: 2,
    entries: [at(0, 'user', 'hello fuzz', T0, 0), at(1, 'assistant', 'hello back', T1, 11)],
  };
}

/** Every request of the suite for one described operation. */
function probesFor(doc: OpenApi, template: string, method: string, op: Operation): Probe[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = params.filter((p) => p.in === 'query').map((p) => p.name);
  const headerParams = params.filter((p) => p.in === 'header').map((p) => p.name);
  const fill = (overrides: Record<string, string>) =>
    template.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(overrides[name] ?? PATH_DEFAULTS[name] ?? 'x'),
    );
  const required = queryParams.filter((n) => n in REQUIRED_QUERY);
  const query = (pairs: Array<[string, string]>) => {
    const all = [
      ...required.filter((n) => !pairs.some(([k]) => k === n)).map((n) => [n, REQUIRED_QUERY[n]!]),
      ...pairs,
    ];
    return all.length === 0
      ? ''
      : `?${all.map(([k, v]) => `${encodeURIComponent(k!)}=${encodeURIComponent(v!)}`).join('&')}`;
  };
  const M = method.toUpperCase();
  const content = Object.keys(op.requestBody?.content ?? {})[0];
  const base: Omit<Probe, 'path'> =
    content === 'application/json'
      ? { method: M, headers: { 'content-type': 'application/json' }, body: '{}' }
      : content
        ? { method: M, headers: { 'content-type': content }, body: 'fuzz' }
        : { method: M };
  // A state-changing route never gets its plain, valid request: only hostile ones.
  const probes: Probe[] = [];
  if (M === 'GET') probes.push({ ...base, path: fill({}) + query([]) });
  for (const name of pathParams)
    for (const value of HOSTILE) probes.push({ ...base, path: fill({ [name]: value }) + query([]) });
  for (const name of queryParams) {
    for (const value of HOSTILE) probes.push({ ...base, path: fill({}) + query([[name, value]]) });
    // Given twice (an array to a naive parser), and as `name[]`.
    probes.push({
      ...base,
      path:
        fill({}) +
        query([
          [name, '1'],
          [name, '2'],
        ]),
    });
    probes.push({ ...base, path: fill({}) + query([[`${name}[]`, '1']]) });
  }
  for (const name of headerParams)
    for (const value of HOSTILE.filter((v) => /^[\x20-\x7e]*$/.test(v)))
      probes.push({ ...base, path: fill({}) + query([]), headers: { ...base.headers, [name]: value } });
  if (content === 'application/json') {
    for (const body of HOSTILE_BODIES) probes.push({ ...base, path: fill({}), body });
    const ref = op.requestBody!.content![content]!.schema?.$ref;
    const schema = ref
      ? doc.components?.schemas?.[ref.split('/').pop()!]
      : op.requestBody!.content![content]!.schema;
    for (const member of Object.keys(schema?.properties ?? {}))
      for (const value of HOSTILE_JSON)
        probes.push({ ...base, path: fill({}), body: JSON.stringify({ [member]: value }) });
    // Hostile documents in an ingest batch: each member of a summary set to each hostile value.
    if (template === '/api/ingest/docs')
      for (const member of Object.keys(summary()))
        for (const value of HOSTILE_JSON)
          probes.push({
            ...base,
            path: fill({}),
            body: JSON.stringify({ docs: [{ ...summary(), [member]: value }] }),
          });
  }
  return probes;
}

const SLOW_MS = 2000;

describeEngines('fuzz every described route (issue 42)', (engine) => {
  let store: Store;
  let app: OpenAPIHono;
  const faults: string[] = [];

  beforeAll(async () => {
    store = await engine.open();
    await createMigrator(store).up();
    app = createApp({ store, logError: (m) => faults.push(m) });
    const seeded = await app.request('/api/ingest/docs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ docs: [summary(), chunk()] }),
    });
    expect(seeded.status).toBe(200);
    const object = await app.request(`/api/ingest/objects/${SID}/transcript.jsonl`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: LINES,
    });
    expect(object.status).toBe(200);
  }, 60_000);
  afterAll(() => store?.close());

  it('answers every hostile request with a non-5xx within 2 s', async () => {
    const doc = (await (await app.request('/api/openapi.json')).json()) as OpenApi;
    const ops: Array<[string, string, Operation]> = [];
    for (const [template, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item))
        if (['get', 'post', 'put', 'delete', 'patch'].includes(method)) ops.push([template, method, op]);
    // The migrations last: each hostile request to them is followed by bringing the schema back.
    ops.sort(([a], [b]) => Number(a.startsWith('/api/migrate/')) - Number(b.startsWith('/api/migrate/')));
    expect(ops.length).toBeGreaterThan(20);

    const byStatus = new Map<number, number>();
    const failures: string[] = [];
    let sent = 0;
    for (const [template, method, op] of ops) {
      for (const probe of probesFor(doc, template, method, op)) {
        const started = performance.now();
        let status: number;
        try {
          const res = await app.request(probe.path, {
            method: probe.method,
            headers: probe.headers,
            body: probe.body,
          });
          await res.arrayBuffer();
          status = res.status;
        } catch (err) {
          failures.push(`${probe.method} ${probe.path.slice(0, 200)}: threw ${String(err)}`);
          continue;
        }
        const ms = performance.now() - started;
        sent++;
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        const what = `${probe.method} ${probe.path.slice(0, 200)}${probe.body ? ` ${probe.body.slice(0, 120)}` : ''}`;
        if (status >= 500) failures.push(`${what}: ${status}`);
        if (ms > SLOW_MS) failures.push(`${what}: ${Math.round(ms)} ms`);
        if (template.startsWith('/api/migrate/') && probe.method === 'POST') await createMigrator(store).up();
      }
    }
    const counts = [...byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(`${engine.name}: ${sent} requests over ${ops.length} routes; ${counts.join(', ')}`);
    expect(failures, [...failures.slice(0, 20), ...faults.slice(0, 5)].join('\n')).toEqual([]);
    expect(faults).toEqual([]);
    // The suite reached the handlers: both answers and refusals.
    expect(byStatus.get(200) ?? 0).toBeGreaterThan(0);
    expect(byStatus.get(400) ?? 0).toBeGreaterThan(sent / 2);
  }, 240_000);
});
