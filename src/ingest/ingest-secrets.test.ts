/**
 * Ingest counts likely secrets: each entry holding one carries its counts by rule, the summary
 * sums them (`secrets: {total, byRule}`, never the secret), and an append read from the cursor
 * gives the same counts as one pass over the whole file.
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summaryDocSchema, type ChunkDoc, type SummaryDoc } from '../core/documents.js';
import { createMigrator } from '../migrations/runner.js';
import type { Store } from '../store/contract.js';
import { openStore } from '../store/open-store.js';
import { assistantRecord, transcriptLines, userRecord } from '../../test/support/hand-made-transcript.js';
import { plantedSecretsOfEveryRule, type PlantedSecret } from '../../test/support/planted-secrets.js';
import { cursorId, type SessionCursor } from './ingest-session.js';
import { ingestTree } from './ingest-tree.js';
import { storeSink } from './sink.js';

const ID = '5ec2e75a-0000-4000-8000-00000000a5e7';
let tmp: string;
const stores: Store[] = [];

async function freshStore(name: string): Promise<Store> {
  const s = await openStore({ dataDir: path.join(tmp, name) });
  await createMigrator(s).up();
  stores.push(s);
  return s;
}

const ingest = (root: string, s: Store) =>
  ingestTree({
    root,
    sink: storeSink(s),
    hostname: 'h',
    source: 'backfill',
    provenance: 'backfilled',
    secretPatterns: [{ rule: 'internal', regex: /itk_[0-9a-f]{8}/g }],
  });

async function summaryOf(s: Store): Promise<SummaryDoc> {
  return summaryDocSchema.parse(await s.docs.get(`summary:${ID}`));
}

/**
 * Lines holding every planted secret: as prompts, in a tool call's input, in a tool's result. A
 * multi-line or quoted one stays out of tool inputs: there it is JSON-escaped (`\n`), and a
 * private key so escaped is no longer one to secretlint (nor in a share, which shows inputs so).
 */
function lines(planted: PlantedSecret[]): string[] {
  const records = [userRecord('u', 'here are the keys')];
  planted.forEach((p, i) => {
    if (i % 3 === 0) records.push(userRecord(`u${i}`, p.text));
    else if (i % 3 === 1 && !/["\n]/.test(p.text))
      records.push(
        assistantRecord(`a${i}`, [
          { type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command: p.text } },
        ]),
      );
    else if (i % 3 === 1) records.push(userRecord(`u${i}`, p.text));
    else
      records.push(
        userRecord(`r${i}`, [{ type: 'tool_result', tool_use_id: `t${i - 1}`, content: `out: ${p.text}` }]),
      );
    records.push(assistantRecord(`n${i}`, 'noted'));
  });
  records.push(userRecord('own', 'and the internal one: itk_0123abcd'));
  return transcriptLines(records, {
    sessionId: ID,
    start: '2025-10-01T00:00:00.000Z',
    fields: { cwd: '/w' },
  });
}

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-secrets-ingest-'));
});
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('secrets counted at ingest', () => {
  it('sums the entries’ counts by rule, the same in two appends as in one pass', async () => {
    const planted = plantedSecretsOfEveryRule();
    const all = lines(planted);
    const expected: Record<string, number> = { internal: 1 };
    for (const p of planted) expected[p.rule] = (expected[p.rule] ?? 0) + 1;

    // One pass over the whole file.
    const whole = path.join(tmp, 'whole', 'p');
    await mkdir(whole, { recursive: true });
    await writeFile(path.join(whole, `${ID}.jsonl`), `${all.join('\n')}\n`);
    const one = await freshStore('one');
    await ingest(path.dirname(whole), one);
    const s1 = await summaryOf(one);
    expect(s1.secrets).toEqual({ total: planted.length + 1, byRule: expected });

    // The same lines in two appends: the second ingest reads from the cursor only.
    const grow = path.join(tmp, 'grow', 'p');
    await mkdir(grow, { recursive: true });
    const half = Math.floor(all.length / 2);
    const file = path.join(grow, `${ID}.jsonl`);
    await writeFile(file, `${all.slice(0, half).join('\n')}\n`);
    const two = await freshStore('two');
    await ingest(path.dirname(grow), two);
    const partial = (await summaryOf(two)).secrets!;
    expect(partial.total).toBeGreaterThan(0);
    expect(partial.total).toBeLessThan(planted.length + 1);
    await appendFile(file, `${all.slice(half).join('\n')}\n`);
    const r = await ingest(path.dirname(grow), two);
    expect(r.changedFiles).toBe(1);
    expect((await summaryOf(two)).secrets).toEqual(s1.secrets);

    // Each entry holding a secret is marked with its rules; no secret is stored in a count.
    const chunks = await two.docs.allDocs({
      startkey: `chunk:${ID}:`,
      endkey: `chunk:${ID}:\uffff`,
      includeDocs: true,
    });
    const marked = chunks.rows
      .flatMap((c) => (c.doc as unknown as ChunkDoc).entries ?? [])
      .filter((e) => e.secrets)
      .map((e) => e.secrets!);
    expect(marked.length).toBe(planted.length + 1);
    const summed: Record<string, number> = {};
    for (const m of marked) for (const [k, n] of Object.entries(m)) summed[k] = (summed[k] ?? 0) + n;
    expect(summed).toEqual(expected);
    const stored = JSON.stringify(await summaryOf(two));
    for (const p of planted) expect(stored).not.toContain(p.secret);
  });

  it('says nothing of secrets for a session whose earlier part was not counted', async () => {
    const root = path.join(tmp, 'old', 'p');
    await mkdir(root, { recursive: true });
    const file = path.join(root, `${ID}.jsonl`);
    const all = lines(plantedSecretsOfEveryRule());
    await writeFile(file, `${all.slice(0, 3).join('\n')}\n`);
    const s = await freshStore('old');
    await ingest(path.dirname(root), s);
    // The cursor as a version without the count left it.
    const cursor = (await s.docs.getLocal<SessionCursor>(cursorId(ID)))!;
    delete cursor.state.secrets;
    await s.docs.putLocal(cursorId(ID), cursor);
    await appendFile(file, `${all.slice(3).join('\n')}\n`);
    await ingest(path.dirname(root), s);
    expect((await summaryOf(s)).secrets).toBeUndefined();
  });
});
