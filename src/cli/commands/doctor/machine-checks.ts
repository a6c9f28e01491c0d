/**
 * Doctor's checks of this machine: the Node.js running the CLI (and whether the SQLite driver
 * loads in it), the config and data dirs, and the transcript trees Claude Code and Codex write.
 * Each `gather` reads a little (a stat, one directory listing, never a walk of a tree); each
 * `assess` is pure.
 */
import { scanTree, type SkippedPath } from '../../../ingest/scan-tree.js';
import { constants } from 'node:fs';
import { access, readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Env, envValue, packageRoot } from '../../../config/paths.js';
import { check, type CheckResult } from './check.js';

export interface NodeFacts {
  version: string;
  /** The major version package.json's `engines.node` asks for. */
  minMajor: number;
  /** Whether better-sqlite3's native module loads here; null when the store is PostgreSQL. */
  sqlite: { ok: true } | { ok: false; error: string } | null;
}

export async function gatherNode(env: Env): Promise<NodeFacts> {
  const pkg = JSON.parse(await readFile(join(packageRoot(), 'package.json'), 'utf8')) as {
    engines?: { node?: string };
  };
  const minMajor = Number(/(\d+)/.exec(pkg.engines?.node ?? '')?.[1] ?? 20);
  let sqlite: NodeFacts['sqlite'] = null;
  if (!envValue(env, 'CT_DATABASE_URL')) {
    try {
      // A native module built for another Node.js fails here, not at import: open a throwaway db.
      const Database = createRequire(import.meta.url)('better-sqlite3') as new (f: string) => {
        close(): void;
      };
      new Database(':memory:').close();
      sqlite = { ok: true };
    } catch (err) {
      sqlite = { ok: false, error: (err as Error).message.split('\n')[0]! };
    }
  }
  return { version: process.versions.node, minMajor, sqlite };
}

export function assessNode(f: NodeFacts): CheckResult {
  const c = check('node', 'machine', 'Node.js');
  const major = Number(f.version.split('.')[0]);
  if (major < f.minMajor)
    return c.fail(
      `v${f.version} runs this CLI; transcripts needs ${f.minMajor} or newer`,
      `install Node.js ${f.minMajor} or newer (https://nodejs.org), then \`npm rebuild\` in ${packageRoot()}`,
    );
  if (f.sqlite && !f.sqlite.ok)
    return c.fail(
      `v${f.version}, but the SQLite driver does not load in it: ${f.sqlite.error}`,
      `cd ${packageRoot()} && npm rebuild better-sqlite3`,
    );
  return c.ok(`v${f.version} (${f.minMajor} or newer needed)${f.sqlite ? '; the SQLite driver loads' : ''}`);
}

export interface DirFacts {
  path: string;
  exists: boolean;
  /** Subdirectories that exist but this user cannot write (the dir itself first). */
  unwritable: string[];
  /** Owned by another user (a `sudo transcripts …` once?). */
  foreignOwner: boolean;
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** `dir` and those of `subdirs` (relative) that exist: are they there and writable? */
export async function gatherDir(dir: string, subdirs: string[] = []): Promise<DirFacts> {
  const st = await stat(dir).catch(() => null);
  if (!st) return { path: dir, exists: false, unwritable: [], foreignOwner: false };
  const unwritable: string[] = [];
  for (const p of [dir, ...subdirs.map((s) => join(dir, s))])
    if ((await stat(p).catch(() => null)) && !(await writable(p))) unwritable.push(p);
  const uid = process.getuid?.();
  return { path: dir, exists: true, unwritable, foreignOwner: uid !== undefined && st.uid !== uid };
}

export function assessDir(
  id: 'config-dir' | 'data-dir',
  f: DirFacts,
  why: string,
  ctHome: string | undefined,
): CheckResult {
  const c = check(id, 'machine', id === 'config-dir' ? 'config dir' : 'data dir');
  const where = `${f.path}${ctHome ? ` (CT_HOME=${ctHome})` : ''}`;
  if (!f.exists)
    return c.warn(
      `${where} does not exist yet: nothing has run with these dirs (${why})`,
      '`transcripts serve` (or `transcripts install`) creates it',
    );
  if (f.unwritable.length)
    return c.fail(
      `${f.unwritable.join(', ')} cannot be written by this user (${why})`,
      f.foreignOwner ? `sudo chown -R "$(id -un)" ${f.path}` : `chmod -R u+rwX ${f.path}`,
    );
  return c.ok(`${where} exists and is writable`);
}

export interface TreeFacts {
  path: string;
  state: 'missing' | 'not-a-dir' | 'dir';
  /** Entries at its top level (project folders, Codex's years). */
  entries: number;
  /** Folders and transcripts in it this user cannot read (scan-tree.ts): backfill, import and the watcher skip them. */
  unreadable?: SkippedPath[];
}

export async function gatherTree(path: string): Promise<TreeFacts> {
  const st = await stat(path).catch(() => null);
  if (!st) return { path, state: 'missing', entries: 0 };
  if (!st.isDirectory()) return { path, state: 'not-a-dir', entries: 0 };
  const unreadable: SkippedPath[] = [];
  await scanTree(path, undefined, unreadable);
  return { path, state: 'dir', entries: (await readdir(path).catch(() => [])).length, unreadable };
}

/** The warning for a tree with paths this user cannot read, or null. */
function unreadableWarning(c: ReturnType<typeof check>, f: TreeFacts): CheckResult | null {
  const u = f.unreadable ?? [];
  if (u.length === 0) return null;
  const shown = u.slice(0, 5).map((k) => `${k.path} (${k.reason})`);
  return c.warn(
    `${f.path}: ${u.length} path${u.length === 1 ? '' : 's'} this user cannot read, so backfill, the import and ` +
      `the watcher skip ${u.length === 1 ? 'it' : 'them'}: ${shown.join(', ')}${u.length > 5 ? ` and ${u.length - 5} more` : ''}`,
    `make them readable (chmod -R u+rX, or chown them to this user), then \`transcripts backfill\``,
  );
}

/** Whether a URL's host is this machine (the server then reads this machine's trees). */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

export interface ServerView {
  url: string;
  /** The tree the server's first-start import reads (`import.root` of /api/health). */
  importRoot?: string;
}

export function assessClaudeTree(f: TreeFacts, server: ServerView | null): CheckResult {
  const c = check('claude-tree', 'machine', 'Claude Code');
  if (f.state === 'not-a-dir')
    return c.fail(`${f.path} is not a directory`, `move it aside; Claude Code writes its transcripts there`);
  if (f.state === 'missing')
    return c.warn(
      `${f.path} does not exist: Claude Code has written no transcripts as this user (HOME=${dirname(dirname(f.path))})`,
      'run Claude Code once, or `transcripts backfill --dir <where its projects are>`',
    );
  const unreadable = unreadableWarning(c, f);
  if (unreadable) return unreadable;
  const found = `${f.path}: ${f.entries} project folder${f.entries === 1 ? '' : 's'}`;
  if (!server) return c.ok(found);
  if (!isLocalUrl(server.url))
    return c.ok(`${found}; the API at ${server.url} is on another machine, so the hooks record them`);
  if (server.importRoot && server.importRoot !== f.path)
    return c.warn(
      `${found}, but the server at ${server.url} reads ${server.importRoot} (it runs with another HOME)`,
      'run the server as this user: `transcripts install` (or `transcripts serve` from this shell)',
    );
  return c.ok(`${found}; the server at ${server.url} imports it and watches it (unless run with --no-watch)`);
}

/**
 * The session folder of an agent other than Claude Code (Codex CLI, Gemini CLI): read and watched
 * when it is there, nothing to do when not. `setting` names the variable that moves it.
 */
export function assessAgentTree(
  agent: { id: string; name: string; setting: string },
  f: TreeFacts,
): CheckResult {
  const c = check(`${agent.id}-tree`, 'machine', agent.name);
  if (f.state === 'dir')
    return unreadableWarning(c, f) ?? c.ok(`${f.path}: read like Claude Code's transcripts and watched`);
  if (f.state === 'not-a-dir')
    return c.warn(`${f.path} is not a directory`, `move it aside (${agent.setting})`);
  return c.ok(`${f.path} does not exist (${agent.name} not used here; nothing to do)`);
}
