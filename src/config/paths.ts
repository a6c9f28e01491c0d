/**
 * Where an instance keeps its files (DESIGN §11): the config dir holds `config.json` and
 * `instance.env`, the data dir holds the store. `CT_HOME` overrides both (config in
 * `$CT_HOME/config`, data in `$CT_HOME/data`), which is what tests and side-by-side instances use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Env = Record<string, string | undefined>;

export interface InstancePaths {
  configDir: string;
  dataDir: string;
  /** `<configDir>/config.json`: user settings. */
  configFile: string;
  /** `<configDir>/instance.env`: where the installed instance listens (read by CLI clients and the dev server). */
  instanceEnvFile: string;
}

/** An env value, or undefined when unset or blank (a blank variable counts as unset). */
export function envValue(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/** The user's home directory: `HOME` when set (so tests can point it elsewhere), else the OS's. */
export function homeDir(env: Env = process.env): string {
  return envValue(env, 'HOME') ?? homedir();
}

/** Config and data directories for this environment. Nothing is created. */
export function resolvePaths(env: Env = process.env): InstancePaths {
  const ctHome = envValue(env, 'CT_HOME');
  const home = homeDir(env);
  const configDir = ctHome
    ? join(resolve(ctHome), 'config')
    : join(envValue(env, 'XDG_CONFIG_HOME') ?? join(home, '.config'), 'transcripts');
  const dataDir = ctHome
    ? join(resolve(ctHome), 'data')
    : join(envValue(env, 'XDG_DATA_HOME') ?? join(home, '.local', 'share'), 'transcripts');
  return {
    configDir,
    dataDir,
    configFile: join(configDir, 'config.json'),
    instanceEnvFile: join(configDir, 'instance.env'),
  };
}

/** Claude Code's transcript tree, `~/.claude/projects` (respects `HOME`). */
export function claudeProjectsDir(env: Env = process.env): string {
  return join(homeDir(env), '.claude', 'projects');
}

/** Codex CLI's rollouts, `$CODEX_HOME/sessions` (Codex's own setting; default `~/.codex`). */
export function codexSessionsDir(env: Env = process.env): string {
  return join(envValue(env, 'CODEX_HOME') ?? join(homeDir(env), '.codex'), 'sessions');
}

let cachedRoot: string | undefined;

/**
 * The package's root directory (where package.json named `transcripts` lives), found by walking
 * up from this module — the same answer from `src/` under vitest and from `dist/src/` when built.
 */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'transcripts') {
          cachedRoot = dir;
          return dir;
        }
      } catch {
        // not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the transcripts package root');
    dir = parent;
  }
}

/** The package version from package.json (the build version the UI header shows). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** The UI build shipped with the package: `<root>/web/dist`. */
export function defaultStaticDir(): string {
  return join(packageRoot(), 'web', 'dist');
}
