/**
 * docs/cli.md's command sections are the CLI's own `--help` (STYLE §6: the reference is
 * regenerated from the help, as Datasette's cli-reference is): one `## transcripts <command>`
 * section per command, in the order the program lists them, its fenced block exactly what the
 * built CLI prints. Prose after a block is kept. When a command's help changes, regenerate with
 *
 *     CT_UPDATE_CLI_DOCS=1 npx vitest run test/cli/cli-docs.test.ts
 *
 * which rewrites the blocks in place and adds sections for new commands.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { cleanEnv, runCli } from '../support/api-server.js';
import { repoRoot } from '../support/paths.js';

const DOC = path.join(repoRoot, 'docs', 'cli.md');
const names = ['', ...COMMANDS.map((c) => c.name)];
const heading = (name: string) => `## transcripts${name ? ` ${name}` : ''}`;

/** Every command's help, as the built CLI prints it on a pipe (80 columns, no colour). */
async function helps(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const env = cleanEnv({ NO_COLOR: '1', FORCE_COLOR: undefined, HOME: '/nonexistent' });
  for (let i = 0; i < names.length; i += 4) {
    const batch = names.slice(i, i + 4);
    const results = await Promise.all(
      batch.map((n) => runCli([...(n ? n.split(' ') : []), '--help'], { env })),
    );
    batch.forEach((n, j) => {
      expect(results[j]!.code, `${n} --help`).toBe(0);
      out.set(n, results[j]!.stdout);
    });
  }
  return out;
}

interface Section {
  name: string;
  start: number;
  end: number;
  block: string | null;
}

/** The `## transcripts …` sections of the document, each up to the next `## `. */
function sections(text: string): Section[] {
  const lines = text.split('\n');
  const found: Section[] = [];
  lines.forEach((l, i) => {
    const m = /^## transcripts( (.+))?$/.exec(l);
    if (m) found.push({ name: m[2] ?? '', start: i, end: lines.length, block: null });
  });
  found.forEach((s, i) => {
    s.end = found[i + 1]?.start ?? lines.length;
    const body = lines.slice(s.start + 1, s.end).join('\n');
    s.block = /^\s*```\n([\s\S]*?)```/.exec(body)?.[1] ?? null;
  });
  return found;
}

/** The document with each command's block replaced by its help, and sections added for new commands. */
function regenerate(text: string, help: Map<string, string>): string {
  const lines = text.split('\n');
  const existing = new Map(sections(text).map((s) => [s.name, s]));
  const first = Math.min(...[...existing.values()].map((s) => s.start));
  const out = lines.slice(0, first);
  for (const name of names) {
    const s = existing.get(name);
    const block = ['```', ...help.get(name)!.split('\n').slice(0, -1), '```'];
    if (!s) {
      out.push(heading(name), '', ...block, '');
      continue;
    }
    const body = lines.slice(s.start + 1, s.end);
    const open = body.findIndex((l) => l === '```');
    const close = body.findIndex((l, i) => i > open && l === '```');
    out.push(heading(name), ...body.slice(0, open), ...block, ...body.slice(close + 1));
  }
  return out.join('\n');
}

describe('docs/cli.md', () => {
  it('has each command’s --help, in the order the program lists them, and no other command', async () => {
    const help = await helps();
    let text = readFileSync(DOC, 'utf8');
    if (process.env.CT_UPDATE_CLI_DOCS) {
      text = regenerate(text, help);
      writeFileSync(DOC, text);
    }
    const found = sections(text);
    expect(found.map((s) => s.name)).toEqual(names);
    for (const s of found)
      expect(s.block, `${heading(s.name)} (CT_UPDATE_CLI_DOCS=1 regenerates it)`).toBe(help.get(s.name));
  });
});
