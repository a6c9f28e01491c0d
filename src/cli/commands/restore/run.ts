/** What `transcripts restore` does (its spec, ../restore.ts, imports this when it runs). */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ApiClient, Session, SessionFilters } from '../../../client/api-client.js';
import { encodePathSegments } from '../../../client/api-client.js';
import { sha256OfReprDigest } from '../../../api/repr-digest.js';
import { hashStream } from '../../../bundle/checksum.js';
import { layoutFiles, type LayoutFile } from '../../../core/claude-layout.js';
import { claudeProjectsDir } from '../../../config/paths.js';
import type { CommandContext } from '../../command.js';
import type { RestoreOptions } from '../restore.js';
import { formatBytes, plural } from '../shared/format.js';
import { HashingWriter } from '../shared/hashing-writer.js';
import { resolveSessionId } from '../shared/session-ref.js';

/** What restore does with one file. */
type FileAction = 'write' | 'unchanged' | 'replace' | 'refuse';

interface PlannedFile extends LayoutFile {
  sha256: string;
  bytes: number;
  action: FileAction;
}

async function fileSha256(path: string): Promise<string> {
  return (await hashStream(createReadStream(path))).sha256;
}

/** The stored object's sha256 and size (HEAD with Want-Repr-Digest: hashed where it is kept). */
async function storedDigest(client: ApiClient, key: string): Promise<{ sha256: string; bytes: number }> {
  const head = await client.fetchRaw('HEAD', `/api/store/objects/${encodePathSegments(key)}`, {
    headers: { accept: '*/*', 'want-repr-digest': 'sha-256=10' },
  });
  const sha256 = sha256OfReprDigest(head.headers.get('repr-digest'));
  if (!sha256) throw new Error(`the API gave no sha-256 digest for object ${key}`);
  return { sha256, bytes: Number(head.headers.get('content-length') ?? 0) };
}

/** A Codex CLI rollout's first line: `{"timestamp":…,"type":"session_meta","payload":{…`. */
const CODEX_FIRST_LINE =
  /^\{[^\n]{0,200}?"type"\s*:\s*"(session_meta|turn_context|response_item|event_msg|compacted)"\s*,\s*"payload"/;

/** Whether a session's main transcript is a Codex rollout (its first bytes say), not Claude Code's. */
async function isCodexRollout(client: ApiClient, sessionId: string): Promise<boolean> {
  const pieces: Uint8Array[] = [];
  await client.object(`${sessionId}/transcript.jsonl`, (p) => void pieces.push(p), {
    range: { start: 0, end: 4096 },
  });
  return CODEX_FIRST_LINE.test(Buffer.concat(pieces).toString('utf8'));
}

/** The first free `<path>.bak`, `<path>.bak.1`, … */
function backupPath(path: string): string {
  if (!existsSync(`${path}.bak`)) return `${path}.bak`;
  for (let i = 1; ; i++) if (!existsSync(`${path}.bak.${i}`)) return `${path}.bak.${i}`;
}

/** Each file of a session, its stored digest, and what is at its place now. */
async function planSession(
  client: ApiClient,
  s: Session,
  projectsDir: string,
  force: boolean,
): Promise<PlannedFile[]> {
  if (!s.cwd) throw new RestoreRefusal(`${s.id}: its working directory is unknown, so it has no place to go`);
  const { objects } = await client.objects(s.id);
  const files = layoutFiles(
    { id: s.id, cwd: s.cwd },
    objects.map((o) => o.name),
    projectsDir,
  );
  if (files.length === 0) throw new RestoreRefusal(`${s.id}: no transcript is stored`);
  // (An empty transcript has no first line to tell, and a range of it would be refused.)
  const main = objects.find((o) => o.name === 'transcript.jsonl');
  if (main && main.size > 0 && (await isCodexRollout(client, s.id)))
    throw new RestoreRefusal(
      `${s.id}: a Codex CLI rollout; restore writes Claude Code's layout only (its bytes: GET /api/store/objects/${s.id}/transcript.jsonl)`,
    );
  const planned: PlannedFile[] = [];
  for (const f of files) {
    const stored = await storedDigest(client, `${s.id}/${f.objectName}`);
    let action: FileAction = 'write';
    if (existsSync(f.path)) {
      if ((await fileSha256(f.path)) === stored.sha256) action = 'unchanged';
      else action = force ? 'replace' : 'refuse';
    }
    planned.push({ ...f, ...stored, action });
  }
  return planned;
}

/** A session restore will not write, and why (exit 1, the others still restored). */
class RestoreRefusal extends Error {}

/**
 * Writes one object to its place: into a `.part` file beside it (ignored by the watcher, which
 * reads only `.jsonl`), hashed on the way, renamed into place only when the sha256 matches.
 */
async function writeFile(
  client: ApiClient,
  sessionId: string,
  f: PlannedFile,
  mtime: Date | null,
  onBytes: (n: number) => void,
): Promise<void> {
  await mkdir(dirname(f.path), { recursive: true });
  const part = `${f.path}.${process.pid}.part`;
  const out = new HashingWriter(part);
  try {
    await client.object(`${sessionId}/${f.objectName}`, (piece) => {
      onBytes(piece.length);
      return out.write(piece);
    });
    const written = await out.close();
    if (written.sha256 !== f.sha256)
      throw new Error(`${f.path}: the bytes received hash to ${written.sha256}, not the stored ${f.sha256}`);
    // Claude Code lists sessions by their file's time: the restored one sorts where it was.
    if (mtime) await utimes(part, mtime, mtime);
    if (f.action === 'replace') await rename(f.path, backupPath(f.path));
    await rename(part, f.path);
  } catch (err) {
    await out.close().catch(() => undefined);
    await rm(part, { force: true });
    throw err;
  }
  // Read back from the disk: what Claude Code will read is the stored object.
  const onDisk = await fileSha256(f.path);
  if (onDisk !== f.sha256)
    throw new Error(`${f.path}: sha256 on disk ${onDisk} is not the stored ${f.sha256}`);
}

/** Every session the filters select (the list's own filters), newest first. */
async function listed(client: ApiClient, filters: SessionFilters): Promise<Session[]> {
  const out: Session[] = [];
  for (let offset = 0; ;) {
    const page = await client.listSessions({ ...filters, limit: 500, offset });
    out.push(...page.sessions);
    offset += page.sessions.length;
    if (page.sessions.length === 0 || offset >= page.total) return out;
  }
}

const ACTION_WORDS: Record<FileAction, string> = {
  write: 'write',
  unchanged: 'unchanged',
  replace: 'replace (old kept as .bak)',
  refuse: 'refused: a different file is there',
};

export async function runRestore(options: RestoreOptions, ctx: CommandContext): Promise<number> {
  const { client } = ctx.client(options.webapi);
  const projectsDir = options.to ?? claudeProjectsDir(ctx.env);
  const sessions: Session[] = [];
  if (options.refs.length) {
    for (const ref of options.refs) sessions.push(await client.session(await resolveSessionId(client, ref)));
  } else {
    sessions.push(...(await listed(client, options.filters)));
    if (sessions.length === 0) {
      ctx.io.out('no sessions match');
      return 0;
    }
  }

  const plans: Array<{ s: Session; files: PlannedFile[] }> = [];
  const problems: string[] = [];
  for (const s of sessions) {
    try {
      plans.push({ s, files: await planSession(client, s, projectsDir, options.force) });
    } catch (err) {
      if (!(err instanceof RestoreRefusal)) throw err;
      problems.push(err.message);
    }
  }
  for (const { s, files } of plans)
    for (const f of files)
      if (f.action === 'refuse')
        problems.push(`${s.id}: ${f.path} holds different bytes; --force replaces it (keeping it as .bak)`);

  if (options.dryRun) {
    for (const { s, files } of plans)
      for (const f of files)
        ctx.io.out(`${s.id.slice(0, 8)}  ${ACTION_WORDS[f.action]}  ${f.path} (${formatBytes(f.bytes)})`);
    for (const p of problems) ctx.io.err(`restore: ${p}`);
    const n = plans.reduce(
      (k, p) => k + p.files.filter((f) => f.action === 'write' || f.action === 'replace').length,
      0,
    );
    ctx.io.out(`dry run: ${plural(n, 'file')} to write; nothing written`);
    return problems.length ? 1 : 0;
  }

  // A session with a refused file is left whole: half a session is not something to resume.
  const todo = plans.filter((p) => !p.files.some((f) => f.action === 'refuse'));
  const work = todo.flatMap(({ s, files }) =>
    files.filter((f) => f.action === 'write' || f.action === 'replace').map((f) => ({ s, f })),
  );
  const bytesTotal = work.reduce((n, w) => n + w.f.bytes, 0);
  const progress = ctx.io.progress('restore');
  const state = { filesDone: 0, filesTotal: work.length, bytesDone: 0, bytesTotal };
  progress.update(state);
  let backups = 0;
  try {
    for (const { s, f } of work) {
      const mtime = s.lastActivity ? new Date(s.lastActivity) : null;
      await writeFile(client, s.id, f, mtime, (n) => {
        state.bytesDone += n;
        progress.update(state);
      });
      if (f.action === 'replace') backups++;
      state.filesDone++;
      progress.update(state);
    }
  } finally {
    progress.stop();
  }
  for (const { s, files } of todo) {
    const written = files.filter((f) => f.action !== 'unchanged').length;
    const main = files.find((f) => f.objectName === 'transcript.jsonl') ?? files[0]!;
    ctx.io.out(
      written === 0
        ? `${s.id}: already in place (${main.path})`
        : `${s.id}: restored ${plural(written, 'file')} to ${main.path}`,
    );
  }
  for (const p of problems) ctx.io.err(`restore: ${p}`);
  ctx.io.out(
    `restored ${plural(work.length, 'file')} (${formatBytes(bytesTotal)}) of ${plural(todo.length, 'session')}` +
      (backups ? `, ${plural(backups, 'old file')} kept as .bak` : '') +
      (problems.length ? `; ${plural(problems.length, 'refusal')}` : ''),
  );
  return problems.length ? 1 : 0;
}
