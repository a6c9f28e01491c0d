/**
 * The CLI starts in the time of what it loads. `transcripts --version` loads nothing but
 * package.json; a command loads main.ts's static imports, then its own module and what that
 * imports (commands/index.ts: each command is imported only when it runs). This checks, from the
 * sources, that no command but `serve` and `doctor` can reach a store engine (better-sqlite3, pg,
 * the AWS SDK), and, from a real run of the built CLI, what `--version`, `--help` and `sessions`
 * load. A structural check, not a timing: `npm run bench` measures the time.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { binPath, startTestServer, type TestServer } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';
import { importGraph, importsOf, packagesMatching, resolveImport } from '../support/import-graph.js';
import { repoRoot } from '../support/paths.js';

const ENGINES = /^(better-sqlite3|pg|pg-.*|@aws-sdk\/.*)$/;
/**
 * OpenCode's own database is read with better-sqlite3, imported only inside the function that
 * opens one (read-db.ts): reading an agent's file, not opening a store, and loaded only then.
 */
const OPENCODE_DB = 'better-sqlite3 (from src/ingest/providers/opencode/read-db.ts)';
const ENGINE_FILES = /^src\/store\/(open-store|sqlite\/|postgres\/|s3-objects\/|dir-objects\/)/;
const cli = path.join(repoRoot, 'src', 'cli');
const registry = path.join(cli, 'commands', 'index.ts');
const rel = (f: string) => path.relative(repoRoot, f);

/** The command modules the registry loads lazily, by file. */
const commandModules = importsOf(registry).dynamic.map((spec) => resolveImport(registry, spec));

describe('the CLI import graph, from the sources', () => {
  it('main.ts and the registry import no command and no engine before a command is chosen', () => {
    expect(commandModules.length).toBeGreaterThan(20);
    expect(importsOf(registry).static.filter((s) => s.startsWith('./'))).toEqual([]);
    const g = importGraph([path.join(cli, 'main.ts')], { dynamic: false });
    const files = [...g.files].map(rel);
    expect(files.filter((f) => commandModules.includes(path.join(repoRoot, f)))).toEqual([]);
    expect(packagesMatching(g, ENGINES)).toEqual([]);
    // Of the store, only its contract (error classes and types).
    expect(files.filter((f) => f.startsWith('src/store/') && f !== 'src/store/contract.ts')).toEqual([]);
    expect(files.filter((f) => /^src\/(api|server|ingest|migrations|bundle)\//.test(f))).toEqual([]);
  });

  it('no command but serve and doctor can reach a store engine, even through its lazy imports', () => {
    const reaching: string[] = [];
    for (const file of commandModules) {
      const name = rel(file);
      if (name === 'src/cli/commands/serve.ts' || name === 'src/cli/commands/doctor.ts') continue;
      const g = importGraph([file], { dynamic: true });
      const engines = [
        ...packagesMatching(g, ENGINES).filter((p) => p !== OPENCODE_DB),
        ...[...g.files].map(rel).filter((f) => ENGINE_FILES.test(f)),
      ];
      if (engines.length) reaching.push(`${name}: ${engines.join(', ')}`);
    }
    expect(reaching).toEqual([]);
    // …and it stays a lazy import.
    const readDb = path.join(repoRoot, 'src/ingest/providers/opencode/read-db.ts');
    expect(importsOf(readDb).static).not.toContain('better-sqlite3');
    expect(importsOf(readDb).dynamic).toContain('better-sqlite3');
  });
});

describe('what the service loads before it listens, from the sources', () => {
  it('the server reaches the MCP SDK only through a lazy import (about 200 modules)', () => {
    // What `serve` loads (its own module imports src/server/start.ts when it runs).
    const start = path.join(repoRoot, 'src', 'server', 'start.ts');
    const g = importGraph([start], { dynamic: false });
    expect([...g.files].map(rel)).toContain('src/mcp/http.ts');
    expect(packagesMatching(g, /^@modelcontextprotocol\//)).toEqual([]);
    expect([...g.files].map(rel)).not.toContain('src/mcp/tools.ts');
  });

  it("SQLite's writer thread loads no zod: it writes documents already checked", () => {
    const writer = path.join(repoRoot, 'src', 'store', 'sqlite', 'sqlite-writer.ts');
    expect(packagesMatching(importGraph([writer], { dynamic: false }), /^zod/)).toEqual([]);
  });
});

describe('what the built CLI loads', () => {
  let server: TestServer;
  let tmp: string;
  beforeAll(async () => {
    server = await startTestServer({ args: ['--no-import', '--no-watch'], corpus: testEngine('sqlite') });
    tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-load-log-'));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** Runs the CLI with the load log preloaded: its stdout and every module it loaded, repo-relative. */
  async function loaded(args: string[]): Promise<{ stdout: string; modules: string[] }> {
    const log = path.join(tmp, `${args.join('-').replace(/\W+/g, '_')}.log`);
    const preload = path.join(repoRoot, 'test', 'support', 'load-log.mjs');
    // A command that finds problems (doctor) exits 1: what it loaded is still the question.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', preload, binPath, ...args], {
      env: { ...server.env, CT_TEST_LOAD_LOG: log },
    }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
    const modules = (await readFile(log, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((m) => (m.startsWith('file:') ? fileURLToPath(m) : m))
      .filter((m) => path.isAbsolute(m))
      .map(rel);
    return { stdout, modules: [...new Set(modules)] };
  }

  const engineModules = (modules: string[]) =>
    modules.filter((m) =>
      /^node_modules\/(better-sqlite3|pg|pg-[^/]+|@aws-sdk\/[^/]+|@smithy\/[^/]+)\//.test(m),
    );
  /** The registry's command modules among those loaded. */
  const commandsLoaded = (modules: string[]) => {
    const built = new Set(commandModules.map((f) => path.join('dist', rel(f)).replace(/\.ts$/, '.js')));
    return modules.filter((m) => built.has(m));
  };

  it('--version reads package.json and loads none of the CLI', async () => {
    const r = await loaded(['--version']);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.modules.filter((m) => m.startsWith('dist/') || m.startsWith('node_modules/'))).toEqual([]);
  });

  it('sessions loads its own module and no engine, server or other command', async () => {
    const r = await loaded(['sessions', '--limit', '5', '--webapi', server.url]);
    expect(r.stdout).toMatch(/^ID\s+STATUS/);
    expect(r.stdout.trim().split('\n')).toHaveLength(6);
    expect(engineModules(r.modules)).toEqual([]);
    // Nor the undici package (the patient pool's, loaded by the commands that wait on a reindex).
    expect(r.modules.filter((m) => m.startsWith('node_modules/undici/'))).toEqual([]);
    expect(commandsLoaded(r.modules)).toEqual(['dist/src/cli/commands/sessions.js']);
    // Nor zod: the tag rules its --tag checks are in core/annotation-rules.ts, apart from the
    // schemas (zod was a third of the command's start).
    expect(r.modules.filter((m) => m.startsWith('node_modules/zod/'))).toEqual([]);
    expect(r.modules.filter((m) => /^dist\/src\/(store\/(?!contract)|server|api|ingest)/.test(m))).toEqual(
      [],
    );
    // Nor string-width (its Intl.Segmenter was a fifth of the start): these rows are plain text,
    // which the table measures itself (shared/table.ts).
    expect(r.stdout).not.toMatch(/[^\n\x20-\x7e●○■…—–]/);
    expect(r.modules.filter((m) => m.startsWith('node_modules/string-width/'))).toEqual([]);
  });

  it('--help lists every command from the specs alone: no zod, engine or the code they run', async () => {
    const r = await loaded(['--help']);
    // Commander wraps a summary over lines: compared with its words rejoined.
    const listed = r.stdout.replace(/\s+/g, ' ');
    const specs = await Promise.all(COMMANDS.map((c) => c.load()));
    for (const spec of specs) {
      const [word, sub] = spec.name.split(' ');
      expect(r.stdout, spec.name).toMatch(new RegExp(`^  ${word}\\b`, 'm'));
      // A group's commands are listed by `transcripts <group> --help`, under the group's line.
      if (!sub) expect(listed, spec.name).toContain(` ${spec.summary} `);
    }
    // The registry loads every command module to list them (commands-for.ts)…
    expect(commandsLoaded(r.modules)).toHaveLength(commandModules.length);
    // …and each is its spec: what a command runs (bundle, migrations, ingest, live recording,
    // secret rules, zod's schemas) is imported by its `run`, not at the top of its module.
    expect(r.modules.filter((m) => m.startsWith('node_modules/zod/'))).toEqual([]);
    expect(engineModules(r.modules)).toEqual([]);
    const runOnly =
      /^dist\/src\/(store\/(?!contract\.js$)|(server|api|ingest|migrations|live|bundle|secrets)\/)/;
    expect(r.modules.filter((m) => runOnly.test(m))).toEqual([]);
  });

  it('the log sees an engine when one loads', async () => {
    // The check above means something only if the log shows better-sqlite3 once it is loaded:
    // doctor loads it (through require) to check that its native module works on this Node.
    const r = await loaded(['doctor', '--webapi', server.url]);
    expect(commandsLoaded(r.modules)).toContain('dist/src/cli/commands/doctor.js');
    expect(engineModules(r.modules).some((m) => m.startsWith('node_modules/better-sqlite3/'))).toBe(true);
  });
});
