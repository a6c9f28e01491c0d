/**
 * The parser against every real Claude Code file in the shared corpus (`../shared/corpus` from the
 * repository root; see its README for what each file exercises). Expectations are computed here
 * independently of the code under test: lines by a plain string split, tokens by grouping whole
 * files by message id.
 */
import { createReadStream, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventDocSchema, summaryDocSchema, type EventDoc, type TokenUsage } from '../documents.js';
import { accumulatorStateSchema } from './accumulator-state-schema.js';
import { projectLines, type EntryLine } from './project-lines.js';
import { createAccumulator, type AccumulatorInit } from './session-accumulator.js';
import { splitLines } from './split-lines.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const corpusRoot = path.join(path.resolve(repoRoot, '../shared/corpus'), 'claude-code');
const files = existsSync(corpusRoot)
  ? readdirSync(corpusRoot, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
  : [];
if (files.length === 0) console.log(`corpus tests skipped: no .jsonl files under ${corpusRoot}`);

const MAIN = 'transcript.jsonl';
const init: AccumulatorInit = {
  sessionId: 'corpus',
  hostname: 'host',
  source: 'backfill',
  provenance: 'backfilled',
};
const abs = (f: string) => path.join(corpusRoot, f);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface RefLine {
  start: number;
  end: number;
  record: Json | null;
}

/** The lines an ingest should take, by a plain split: non-blank, minus a half-written last line. */
function referenceLines(data: Buffer): RefLine[] {
  const pieces = data.toString('latin1').split('\n'); // latin1: one char per byte, so indices are offsets
  const out: RefLine[] = [];
  let offset = 0;
  pieces.forEach((piece, i) => {
    const start = offset;
    offset += piece.length + 1;
    const body = piece.endsWith('\r') ? piece.slice(0, -1) : piece;
    if (/^[ \t\r]*$/.test(body)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.subarray(start, start + body.length).toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const terminated = i < pieces.length - 1;
    if (!terminated && !isObject(parsed)) return; // waits for its newline
    out.push({ start, end: start + body.length, record: isObject(parsed) ? parsed : null });
  });
  return out;
}

/** Token totals by grouping every usage of the given records by message id (per-field max). */
function referenceTokens(records: Array<Json | null>): TokenUsage {
  return referenceSplit(records).get(TOTAL)!;
}

const TOTAL = Symbol('total');

/**
 * The same, split by each message's model (`''` when it names none), with the total under TOTAL;
 * models whose messages counted no token are left out.
 */
function referenceSplit(records: Array<Json | null>): Map<string | typeof TOTAL, TokenUsage> {
  const n = (v: unknown) => (typeof v === 'number' && v > 0 ? Math.floor(v) : 0);
  const messages: Array<{ model: string; v: number[] }> = [];
  const byId = new Map<string, { model: string; v: number[] }>();
  for (const r of records) {
    const m = r?.message;
    if (!isObject(m) || !isObject(m.usage)) continue;
    const u = m.usage;
    const v = [
      n(u.input_tokens),
      n(u.output_tokens),
      n(u.cache_creation_input_tokens),
      n(u.cache_read_input_tokens),
    ];
    const model = typeof m.model === 'string' ? m.model : '';
    if (typeof m.id === 'string' && m.id !== '') {
      const seen = byId.get(m.id);
      if (seen) seen.v = seen.v.map((x, i) => Math.max(x, v[i]!));
      else byId.set(m.id, { model, v });
    } else messages.push({ model, v });
  }
  const out = new Map<string | typeof TOTAL, TokenUsage>();
  const add = (key: string | typeof TOTAL, v: number[]) => {
    const t = out.get(key) ?? { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
    out.set(key, {
      input: t.input + v[0]!,
      output: t.output + v[1]!,
      cacheWrite: t.cacheWrite + v[2]!,
      cacheRead: t.cacheRead + v[3]!,
    });
  };
  add(TOTAL, [0, 0, 0, 0]);
  for (const { model, v } of [...messages, ...byId.values()]) {
    add(TOTAL, v);
    if (v.some((x) => x > 0)) add(model, v);
  }
  return out;
}

/** What a summary's `tokensByModel` should be for these records. */
function referenceByModel(records: Array<Json | null>): Record<string, TokenUsage> {
  const split = referenceSplit(records);
  split.delete(TOTAL);
  return Object.fromEntries(split as Map<string, TokenUsage>);
}

async function readEntries(file: string, highWaterMark = 64 * 1024): Promise<EntryLine[]> {
  const out: EntryLine[] = [];
  const stream = createReadStream(abs(file), { highWaterMark });
  for await (const e of projectLines(splitLines(stream))) out.push(e);
  return out;
}

interface FilePart {
  name: string;
  entries: EntryLine[];
  size: number;
  agentId?: string;
}

/** Feeds files in order, optionally stopping after `split` entries of the first file and resuming from JSON state. */
function accumulate(parts: FilePart[], split?: number) {
  let acc = createAccumulator(init);
  const events: EventDoc[] = [];
  for (const [p, part] of parts.entries()) {
    part.entries.forEach(({ entry, record, line }, i) => {
      if (p === 0 && i === split) {
        acc.setFile(part.name, line.start, i, part.agentId); // what ingest knows when it stops here
        acc = createAccumulator(init, accumulatorStateSchema.parse(JSON.parse(JSON.stringify(acc.state()))));
      }
      events.push(...acc.add(entry, record, part.name));
    });
    acc.setFile(part.name, part.size, part.entries.length, part.agentId);
  }
  return { summary: acc.summary(), events };
}

describe.skipIf(files.length === 0)('corpus: every Claude Code file', () => {
  it('has the files the README describes', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(files)('%s', (file) => {
    it('projects every complete line, with exact byte ranges and malformed lines flagged', async () => {
      const data = readFileSync(abs(file));
      const expected = referenceLines(data);
      // Small chunks for the small files, so lines span chunk boundaries everywhere.
      const entries = await readEntries(file, data.length < 200_000 ? 97 : 64 * 1024);
      expect(entries.length).toBe(expected.length);
      entries.forEach(({ entry, record, line }, i) => {
        const ref = expected[i]!;
        expect([entry.index, entry.byteStart, entry.byteEnd]).toEqual([i, ref.start, ref.end]);
        expect(data.subarray(entry.byteStart, entry.byteEnd).equals(line.bytes)).toBe(true);
        expect(entry.malformed === true).toBe(ref.record === null);
        expect(record).toEqual(ref.record);
      });
    });

    it('summarises validly and resumes from JSON state to the same result', async () => {
      const entries = await readEntries(file);
      const part: FilePart = { name: MAIN, entries, size: readFileSync(abs(file)).length };
      const once = accumulate([part]);
      const summary = summaryDocSchema.parse(once.summary);
      expect(summary.counts.entries).toBe(entries.length);
      expect(summary.counts.malformed).toBe(entries.filter((e) => e.entry.malformed).length);
      expect(summary.tokens).toEqual(referenceTokens(entries.map((e) => e.record)));
      expect(summary.tokensByModel).toEqual(referenceByModel(entries.map((e) => e.record)));
      for (const e of once.events) eventDocSchema.parse(e);
      expect(new Set(once.events.map((e) => e._id)).size).toBe(once.events.length);
      const n = entries.length;
      for (const split of new Set(
        [0, 1, Math.floor(n / 3), Math.floor(n / 2), n - 1].filter((k) => k >= 0 && k < n),
      )) {
        const resumed = accumulate([part], split);
        expect(resumed.summary).toEqual(once.summary);
        expect(resumed.events).toEqual(once.events);
      }
    });
  });
});

describe.skipIf(files.length === 0)('corpus: particular files', () => {
  it('drops only the half-written last line of the truncated SWORDIntel fb4f7a6e backup', async () => {
    const file = 'SWORDIntel__claude-backups/fb4f7a6e-9d92-4292-8743-3a43a187bb1b.jsonl';
    const data = readFileSync(abs(file));
    const lastNewline = data.lastIndexOf(10);
    expect(lastNewline).toBeLessThan(data.length - 1); // the file really ends mid-line
    const entries = await readEntries(file);
    expect(entries).toHaveLength(data.toString('latin1').split('\n').length - 1);
    expect(entries.every((e) => !e.entry.malformed)).toBe(true);
    expect(entries.at(-1)!.line.next).toBe(lastNewline + 1);
  });

  it('keeps the bad lines of the peer edge-case fixtures, flagged', async () => {
    const texts = async (file: string) =>
      (await readEntries(file)).filter((e) => e.entry.malformed).map((e) => e.entry.text);
    expect(await texts('tombelieber__claude-view/malformed.jsonl')).toEqual([
      'this is not valid json at all',
      '{broken json missing bracket',
      '{"incomplete":',
    ]);
    const edge = await texts('daaain__claude-code-log/edge_cases.jsonl');
    expect(edge).toEqual(expect.arrayContaining(['"massive error"', '42', '[1]']));
  });

  it('projects subagent files as sidechain lines of their agent', async () => {
    const agentFiles = files.filter((f) => /\/(agents|subagents)\/agent-[^/]+\.jsonl$/.test(f));
    expect(agentFiles.length).toBeGreaterThanOrEqual(4);
    for (const file of agentFiles) {
      const entries = await readEntries(file);
      expect(entries.length).toBeGreaterThan(0);
      for (const { entry } of entries) {
        expect(entry.isSidechain).toBe(true);
        expect(entry.agentId).toEqual(expect.any(String));
      }
    }
  });

  it('matches the counts the corpus README states for the longest session', async () => {
    const file = 'SWORDIntel__claude-backups/1b2c0332-e2dc-459f-88b9-1aad6e941e18.jsonl';
    const entries = await readEntries(file);
    const { summary } = accumulate([{ name: MAIN, entries, size: 0 }]);
    expect(summary.counts).toMatchObject({
      entries: 812,
      toolCalls: 271,
      toolErrors: 30,
      sidechainEntries: 41,
      compactions: 1,
    });
    expect(summary.models).not.toContain('<synthetic>');
  });

  it.each([
    [
      'randlee__claude-history/claude-history-simple/session.jsonl',
      'randlee__claude-history/claude-history-simple/agents/',
    ],
    [
      'aaaAlexanderaaa__cchistory/cc1df109-4282-4321-8248-8bbcd471da78.jsonl',
      'aaaAlexanderaaa__cchistory/cc1df109-4282-4321-8248-8bbcd471da78/subagents/',
    ],
  ])('counts a session with its subagent files: %s', async (mainFile, agentDir) => {
    const parts: FilePart[] = [
      { name: MAIN, entries: await readEntries(mainFile), size: readFileSync(abs(mainFile)).length },
    ];
    for (const f of files.filter((x) => x.startsWith(agentDir))) {
      const name = `subagents/${path.basename(f)}`;
      parts.push({
        name,
        entries: await readEntries(f),
        size: readFileSync(abs(f)).length,
        agentId: path.basename(f, '.jsonl'),
      });
    }
    const once = accumulate(parts);
    const summary = summaryDocSchema.parse(once.summary);
    expect(summary.subagents).toBe(parts.length - 1);
    expect(summary.transcriptBytes).toBe(parts.reduce((s, p) => s + p.size, 0));
    expect(summary.counts.entries).toBe(parts.reduce((s, p) => s + p.entries.length, 0));
    const records = parts.flatMap((p) => p.entries.map((e) => e.record));
    expect(summary.tokens).toEqual(referenceTokens(records));
    expect(summary.tokensByModel).toEqual(referenceByModel(records));
    expect(summary.title).not.toBeNull();
    expect(once.events.some((e) => e.agentId !== undefined)).toBe(true);
    const resumed = accumulate(parts, Math.floor(parts[0]!.entries.length / 2));
    expect(resumed.summary).toEqual(once.summary);
    expect(resumed.events).toEqual(once.events);
  });
});
