/**
 * Generates a benchmark corpus of a given size from the shared corpus: each copy of a session
 * gets a fresh session id, fresh UUIDs and message ids, and shifted timestamps, so nothing can be
 * deduplicated away. Layout mirrors `~/.claude/projects/<project>/<sessionId>.jsonl`, with
 * subagent files under `<sessionId>/subagents/`.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const MSG_ID = /"(msg_[A-Za-z0-9]+)"/g;
const TIMESTAMP = /"timestamp":\s*"([^"]+)"/g;

interface Template {
  main: string;
  subagents: Array<{ name: string; text: string }>;
  bytes: number;
}

/** Main transcripts from the corpus (with their `<id>/subagents/` files), largest first. */
async function loadTemplates(corpusClaudeDir: string): Promise<Template[]> {
  const out: Template[] = [];
  async function walk(dir: string) {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== 'subagents') await walk(full);
      else if (e.isFile() && e.name.endsWith('.jsonl') && !e.name.startsWith('agent-')) {
        const main = await readFile(full, 'utf8');
        if (main.length < 2000) continue;
        const subDir = path.join(dir, e.name.slice(0, -6), 'subagents');
        const subagents: Template['subagents'] = [];
        try {
          for (const s of await readdir(subDir))
            subagents.push({ name: s, text: await readFile(path.join(subDir, s), 'utf8') });
        } catch {
          // no subagents
        }
        out.push({ main, subagents, bytes: main.length + subagents.reduce((n, s) => n + s.text.length, 0) });
      }
    }
  }
  await walk(corpusClaudeDir);
  return out.sort((a, b) => b.bytes - a.bytes);
}

function rewrite(text: string, ids: Map<string, string>, shiftMs: number): string {
  return text
    .replace(UUID, (u) => {
      let v = ids.get(u);
      if (!v) ids.set(u, (v = randomUUID()));
      return v;
    })
    .replace(MSG_ID, (_m, id: string) => {
      let v = ids.get(id);
      if (!v) ids.set(id, (v = `msg_${randomUUID().replace(/-/g, '')}`));
      return `"${v}"`;
    })
    .replace(TIMESTAMP, (m, ts: string) => {
      const ms = Date.parse(ts);
      return Number.isNaN(ms) ? m : `"timestamp":"${new Date(ms + shiftMs).toISOString()}"`;
    });
}

export interface GeneratedCorpus {
  root: string;
  files: string[];
  bytes: number;
  sessions: number;
}

export async function generateCorpus(
  corpusClaudeDir: string,
  root: string,
  targetBytes: number,
): Promise<GeneratedCorpus> {
  const templates = await loadTemplates(corpusClaudeDir);
  if (templates.length === 0) throw new Error(`no transcripts found under ${corpusClaudeDir}`);
  const files: string[] = [];
  let bytes = 0;
  let sessions = 0;
  for (let copy = 0; bytes < targetBytes; copy++) {
    const t = templates[copy % templates.length]!;
    const ids = new Map<string, string>();
    const sessionId = randomUUID();
    const shift = -copy * 3_600_000; // an hour apart, going back in time
    const project = path.join(root, `-bench-project-${copy % 40}`);
    await mkdir(project, { recursive: true });
    const mainPath = path.join(project, `${sessionId}.jsonl`);
    const main = rewrite(t.main, ids, shift);
    await writeFile(mainPath, main);
    files.push(mainPath);
    bytes += Buffer.byteLength(main);
    for (const s of t.subagents) {
      const dir = path.join(project, sessionId, 'subagents');
      await mkdir(dir, { recursive: true });
      const text = rewrite(s.text, ids, shift);
      const p = path.join(dir, s.name);
      await writeFile(p, text);
      files.push(p);
      bytes += Buffer.byteLength(text);
    }
    sessions++;
  }
  return { root, files, bytes, sessions };
}
