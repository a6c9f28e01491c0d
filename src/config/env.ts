/**
 * Environment variables the service reads (DESIGN §11). A blank variable counts as unset; a
 * malformed one is a `ConfigError` naming the variable (a port of "abc" must not silently become
 * 7650 and surprise whoever set it).
 */
import { ConfigError } from './config-error.js';
import { type Env, envValue } from './paths.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7650;

export interface ServiceEnv {
  /** `WEBAPI_HOST`, default 127.0.0.1. */
  host: string;
  /** `WEBAPI_PORT`, default 7650. */
  port: number;
  /** Whether host/port came from the environment (as opposed to defaults). */
  hostFromEnv: boolean;
  portFromEnv: boolean;
  /** `CT_STATIC_DIR`: the built UI to serve at /app. */
  staticDir?: string;
  /** `CT_API_TOKEN`: bearer token required by the API (mandatory for a non-loopback bind). */
  apiToken?: string;
  /** `CT_ALLOWED_HOSTS`: extra Host header values to accept (comma separated), e.g. behind a proxy. */
  allowedHosts: string[];
}

/** Parses a TCP port (0 = any free port); throws a ConfigError naming `what` when invalid. */
export function parsePort(value: string, what: string): number {
  if (!/^\d{1,5}$/.test(value.trim()))
    throw new ConfigError(`${what} must be a port number (0-65535), got "${value}"`);
  const port = Number(value);
  if (port > 65535) throw new ConfigError(`${what} must be a port number (0-65535), got "${value}"`);
  return port;
}

export function readServiceEnv(env: Env = process.env): ServiceEnv {
  const host = envValue(env, 'WEBAPI_HOST');
  const port = envValue(env, 'WEBAPI_PORT');
  const hosts = envValue(env, 'CT_ALLOWED_HOSTS');
  return {
    host: host ?? DEFAULT_HOST,
    port: port === undefined ? DEFAULT_PORT : parsePort(port, 'WEBAPI_PORT'),
    hostFromEnv: host !== undefined,
    portFromEnv: port !== undefined,
    staticDir: envValue(env, 'CT_STATIC_DIR'),
    apiToken: envValue(env, 'CT_API_TOKEN'),
    allowedHosts: hosts
      ? hosts
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean)
      : [],
  };
}

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  if (h.startsWith('::ffff:127.')) return true;
  return false;
}

/** True for the "every interface" addresses. */
export function isWildcardHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === '0.0.0.0' || h === '::' || h === '0:0:0:0:0:0:0:0';
}

/** Every environment variable the service and CLI read (docs/settings.md documents each). */
export const ENV_VARS: ReadonlyArray<{ name: string; default: string; description: string }> = [
  {
    name: 'WEBAPI_HOST',
    default: DEFAULT_HOST,
    description: 'address the API listens on; anything but loopback needs CT_API_TOKEN',
  },
  {
    name: 'WEBAPI_PORT',
    default: String(DEFAULT_PORT),
    description: 'port the API listens on (0 = any free port)',
  },
  {
    name: 'CT_HOME',
    default: '(unset)',
    description: 'one directory for config (`$CT_HOME/config`) and data (`$CT_HOME/data`)',
  },
  {
    name: 'XDG_CONFIG_HOME',
    default: '~/.config',
    description: 'config dir parent (config.json, instance.env)',
  },
  {
    name: 'XDG_DATA_HOME',
    default: '~/.local/share',
    description: "data dir parent (the store; OpenCode's sessions in its opencode/)",
  },
  { name: 'CT_STATIC_DIR', default: '<package>/web/dist', description: 'built UI served at /app' },
  { name: 'CT_API_TOKEN', default: '(unset)', description: 'bearer token required on /api when set' },
  {
    name: 'CT_API_URL',
    default: '(unset)',
    description: 'where the CLI and the hook find the API, as a whole URL (https, a path prefix)',
  },
  {
    name: 'CT_ALLOWED_HOSTS',
    default: '(unset)',
    description: 'extra Host header values to accept, comma separated',
  },
  { name: 'HOME', default: '(the OS home)', description: 'where ~/.claude/projects is looked for' },
  {
    name: 'CODEX_HOME',
    default: '~/.codex',
    description: "Codex CLI's home: serve watches its sessions/ folder for rollouts",
  },
  {
    name: 'GEMINI_CLI_HOME',
    default: '(the home)',
    description: "Gemini CLI's home: serve watches its .gemini/tmp/ folder for sessions",
  },
  {
    name: 'CT_NOW',
    default: '(unset)',
    description: 'pins the clock (an ISO 8601 instant) for the server and the hook: tests and demos',
  },
  {
    name: 'CT_SPOOL_MAX_BYTES',
    default: '67108864',
    description: "bound of the hook's outbox; past it, events are counted per session, not stored",
  },
  {
    name: 'CT_STALL_TIMEOUT_MS',
    default: '60000',
    description: 'a request body (an upload) or headers that make no progress this long are given up',
  },
  {
    name: 'CT_SPOOL_REPLAY_MS',
    default: '60000',
    description: 'how often serve replays the hook outbox (0: never, not even at start)',
  },
  {
    name: 'CT_HOOK_BUDGET_MS',
    default: '8000',
    description: "the hook's whole budget for talking to the API",
  },
  {
    name: 'CT_HOOK_DEBUG',
    default: '(unset)',
    description: 'when set, the hook also prints its log line to stderr',
  },
];
