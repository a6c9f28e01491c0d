/**
 * Doctor's checks of the API: which instance the CLI finds and how, whether it answers (one
 * GET /api/health, with a short time limit), and what that answer says — version, store, schema,
 * search index, first-start import — and whether instance.env (what the hooks and a bare CLI
 * read) names an instance that answers. `probeHealth` asks; the `assess` functions are pure.
 */
import type { Health } from '../../../client/api-client.js';
import { ApiClient } from '../../../client/api-client.js';
import { ApiConnectionError, ApiError, NotAnApiError } from '../../../client/api-error.js';
import { type ApiUrlResolution, describeApiUrl } from '../../../config/api-url.js';
import { formatBytes, plural } from '../shared/format.js';
import { check, type CheckResult } from './check.js';
import { isLocalUrl } from './machine-checks.js';

export type Probe =
  | { ok: true; url: string; health: Health }
  | {
      ok: false;
      url: string;
      /** unreachable: nothing listens; not-api: something else answers; refused: 401/403. */
      kind: 'unreachable' | 'not-api' | 'refused' | 'timeout' | 'error';
      reason: string;
    };

/** GET /api/health at `url`, given up after `timeoutMs`. Never throws. */
export async function probeHealth(url: string, token: string | undefined, timeoutMs: number): Promise<Probe> {
  const client = new ApiClient({ baseUrl: url, token });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return { ok: true, url, health: await client.health({ signal }) };
  } catch (err) {
    if (signal.aborted)
      return { ok: false, url, kind: 'timeout', reason: `no answer within ${timeoutMs / 1000} s` };
    if (err instanceof NotAnApiError)
      return {
        ok: false,
        url,
        kind: 'not-api',
        reason:
          `HTTP ${err.status}, ${err.contentType ?? 'no content type'}` +
          (err.unlike ? `: JSON with ${err.unlike}` : ''),
      };
    if (err instanceof ApiConnectionError) {
      const cause = (err.cause as { cause?: { code?: string; message?: string } } | undefined)?.cause;
      return { ok: false, url, kind: 'unreachable', reason: cause?.code ?? cause?.message ?? err.message };
    }
    if (err instanceof ApiError)
      return {
        ok: false,
        url,
        kind: err.status === 401 || err.status === 403 ? 'refused' : 'error',
        reason: `HTTP ${err.status} ${err.code}: ${err.message}`,
      };
    return { ok: false, url, kind: 'error', reason: (err as Error).message };
  }
}

/** What a failed probe says, in words. */
export function probeProblem(p: Extract<Probe, { ok: false }>): string {
  switch (p.kind) {
    case 'unreachable':
      return `nothing answers (${p.reason})`;
    case 'not-api':
      return `something answers, but not a transcripts API (${p.reason})`;
    case 'refused':
      return `the API refuses this CLI (${p.reason})`;
    case 'timeout':
      return `it takes the connection but gives ${p.reason}`;
    default:
      return `it answers with an error (${p.reason})`;
  }
}

/** The fix for an instance that does not answer as it should. */
function probeFix(p: Extract<Probe, { ok: false }>, startFix: string): string {
  switch (p.kind) {
    case 'unreachable':
      return startFix;
    case 'not-api':
      return 'point --webapi (or WEBAPI_HOST/WEBAPI_PORT) at the address `transcripts serve` listens on';
    case 'refused':
      return 'set CT_API_TOKEN to the token the server was started with (`CT_API_TOKEN=… transcripts hooks install` also keeps it for the hook and the CLI on this machine)';
    default:
      return `restart the API (${startFix}); its log says what went wrong`;
  }
}

export function assessApi(
  resolution: ApiUrlResolution | { error: string },
  probe: Probe | null,
  startFix: string,
): CheckResult {
  const c = check('api', 'api', 'API');
  if ('error' in resolution)
    return c.fail(resolution.error, 'fix or unset the variable named, or pass --webapi URL');
  const where = describeApiUrl(resolution);
  if (!probe) return c.skip(where);
  if (!probe.ok) {
    // An address the user chose may be the mistake rather than the server.
    const chosen =
      resolution.source === 'flag'
        ? '; or check the --webapi address'
        : resolution.source === 'env'
          ? `; or unset ${resolution.detail.replace(/=\S*/g, '').split(' ').join(' and ')} (they lead here)`
          : '';
    return c.fail(`${where}: ${probeProblem(probe)}`, `${probeFix(probe, startFix)}${chosen}`);
  }
  const h = probe.health;
  return c.ok(`${where} answers (transcripts ${h.version}, up ${upFor(h.uptimeMs)})`);
}

function upFor(ms: number): string {
  const m = Math.floor(ms / 60_000);
  if (m < 1) return `${Math.floor(ms / 1000)} s`;
  if (m < 120) return `${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h` : `${Math.floor(h / 24)} days`;
}

/** The checks that read the health answer: skipped, with the reason, when there is none. */
export function assessHealth(probe: Probe | null, cliVersion: string, restartFix: string): CheckResult[] {
  const version = check('version', 'api', 'version');
  const store = check('store', 'api', 'store');
  const schema = check('schema', 'api', 'schema');
  const search = check('search', 'api', 'search index');
  const imp = check('import', 'api', 'first import');
  if (!probe?.ok)
    return [
      check('health', 'api', 'the rest').skip(
        'version, store, schema, search index, first import and watching not checked: the API does not answer',
      ),
    ];
  const h = probe.health;
  const out: CheckResult[] = [];

  out.push(
    h.version === cliVersion
      ? version.ok(`this CLI and the server are both ${cliVersion}`)
      : version.warn(
          `this CLI is ${cliVersion}, the server runs ${h.version}`,
          `restart the server so it runs this version (${restartFix}), or use the CLI of its version`,
        ),
  );

  const c = h.counts;
  out.push(
    h.store.state === 'error'
      ? store.fail(
          h.store.error ?? `the ${h.store.engine} store cannot be read`,
          `fix what the message names (CT_DATABASE_URL, the database server, file permissions), then restart the server (${restartFix})`,
        )
      : store.ok(
          `${h.store.engine}, ready` +
            (c
              ? `: ${plural(c.sessions, 'session')}, ${plural(c.documents, 'document')}, ${plural(c.objects, 'object')} (${formatBytes(c.objectBytes)})`
              : ''),
        ),
  );

  const sc = h.schema;
  if (!sc) out.push(schema.skip('not checked: the store cannot be read'));
  else if (sc.pending.length)
    out.push(
      schema.fail(
        `version ${sc.currentVersion} of ${sc.latestVersion}: ${plural(sc.pending.length, 'pending migration')} ` +
          `(${sc.pending.map((p) => `${p.version} ${p.name}`).join(', ')}); what needs them answers 503`,
        'transcripts migrate up',
      ),
    );
  else if (sc.currentVersion > sc.latestVersion)
    out.push(
      schema.warn(
        `the store is at version ${sc.currentVersion}, newer than this server knows (${sc.latestVersion})`,
        'run the newer transcripts that migrated it (or `transcripts migrate down` with that version)',
      ),
    );
  else out.push(schema.ok(`version ${sc.currentVersion} of ${sc.latestVersion}, no pending migrations`));

  if (!h.search.enabled)
    out.push(
      search.warn(
        'off: the full-text index is not built (its migration is pending), so `transcripts search` and the UI find nothing',
        'transcripts migrate up',
      ),
    );
  else if (h.search.stale)
    out.push(
      search.warn(
        'behind: some entries are not indexed as they are (an import wrote them, or an earlier version indexed them)',
        'transcripts reindex',
      ),
    );
  else out.push(search.ok('enabled and up to date'));

  out.push(assessImport(h.import, imp));
  out.push(assessWatch(h.watch as Health['watch'] | undefined, probe.url, restartFix));
  return out;
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: string[]) =>
  items.length > 2 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items.join(' and ');

/**
 * Which transcript trees the server watches. Off is a warning for a server on this machine (its
 * sessions then come in only through the hooks and backfills); a shared instance elsewhere runs
 * with --no-watch by design.
 */
export function assessWatch(w: Health['watch'] | undefined, url: string, restartFix: string): CheckResult {
  const c = check('watch', 'api', 'watching');
  if (!w)
    return c.skip('the server does not say which transcript trees it watches (it is older than this CLI)');
  const paths = listed(w.trees.map((t) => t.path)) || 'no transcript tree';
  if (!w.enabled)
    return isLocalUrl(url)
      ? c.warn(
          `off (serve --no-watch): ${paths} not watched; sessions are recorded as they run only by the hooks, the rest when a backfill runs`,
          `restart the server without --no-watch (${restartFix}), or run \`transcripts backfill\` from time to time`,
        )
      : c.ok(
          `off on the server at ${url} (serve --no-watch, as a shared instance runs): this machine's sessions come in through the hooks and backfills`,
        );
  const failed = w.trees.filter((t) => t.state === 'failed');
  if (failed.length)
    return c.warn(
      failed.map((t) => `cannot watch ${t.path}: ${t.error ?? 'no reason given'}`).join('; '),
      `fix what the message names (permissions, the inotify watch limit fs.inotify.max_user_watches), then restart the server (${restartFix})`,
    );
  const said = w.trees.map((t) =>
    t.state === 'watching'
      ? t.path
      : t.state === 'absent'
        ? `${t.path} once it exists`
        : `${t.path} (starting, after the first import)`,
  );
  return c.ok(`watching ${listed(said)}`);
}

function assessImport(i: Health['import'], c: ReturnType<typeof check>): CheckResult {
  const root = i.root ? ` of ${i.root}` : '';
  switch (i.state) {
    case 'running':
      return c.ok(`running${root}: ${i.filesDone}/${i.filesTotal} files (progress also in GET /api/health)`);
    case 'failed':
      return c.warn(
        `failed${root}: ${i.reason ?? 'no reason given'}`,
        'transcripts backfill (imports what is missing and names each file that fails)',
      );
    case 'done':
      return i.failedFiles
        ? c.warn(
            `done${root}, but ${plural(i.failedFiles, 'file')} could not be read (the server's log names them)`,
            'transcripts backfill (retries them and names each failure)',
          )
        : c.ok(`done${root}${i.sessions !== undefined ? `: ${plural(i.sessions, 'session')}` : ''}`);
    case 'skipped':
      return c.ok(`skipped${i.reason ? `: ${i.reason}` : ''}`);
    default:
      return c.ok('not started');
  }
}

export interface InstanceEnvFacts {
  file: string;
  exists: boolean;
  /** The URL the file names (or the default when it names none), or why it cannot be read. */
  url?: string;
  namesNone?: boolean;
  problem?: string;
}

/**
 * instance.env is how the hooks (and the CLI without --webapi or WEBAPI_*) find the API; `probe`
 * is of the URL it leads them to, `cliUrl` the one this CLI uses.
 */
export function assessInstanceEnv(
  f: InstanceEnvFacts,
  probe: Probe | null,
  cliUrl: string | null,
  startFix: string,
): CheckResult {
  const c = check('instance-env', 'api', 'instance.env');
  if (f.problem)
    return c.fail(
      `${f.file}: ${f.problem}`,
      `delete ${f.file} (\`transcripts serve\` writes it again at start)`,
    );
  const elsewhere = cliUrl && f.url && cliUrl !== f.url ? `; this CLI uses ${cliUrl}` : '';
  const answers = probe?.ok === true;
  if (!f.exists || f.namesNone) {
    const what = f.exists ? `${f.file} names no host or port` : `${f.file} does not exist`;
    return answers
      ? c.ok(`${what}: the hooks use the default ${f.url}, which answers${elsewhere}`)
      : c.warn(
          `${what} (\`transcripts serve\` writes it when it starts), and nothing answers at the default ` +
            `${f.url}: the hooks spool everything${elsewhere}`,
          startFix,
        );
  }
  if (!probe) return c.skip(`${f.file} names ${f.url}`);
  if (!probe.ok)
    return c.fail(
      `${f.file} names ${f.url}, where ${probeProblem(probe)}: stale? The hooks and a bare CLI go there${elsewhere}`,
      probe.kind === 'unreachable'
        ? `${startFix} (it writes instance.env again at start)`
        : probeFix(probe, startFix),
    );
  return c.ok(`${f.file} names ${f.url}, which answers${elsewhere}`);
}
