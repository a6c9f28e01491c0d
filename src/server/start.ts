/**
 * `transcripts serve`: the only place that binds a port. Opens the store in the data dir,
 * applies pending migrations (and says so), listens on WEBAPI_HOST:WEBAPI_PORT — refusing a
 * non-loopback address without CT_API_TOKEN — writes instance.env so clients can find it, starts
 * the first-start import (then rebuilds a search index an earlier version made in an older form),
 * and shuts down cleanly on SIGINT/SIGTERM.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { createApp } from '../api/app.js';
import { onClientError } from '../api/client-error.js';
import { ConfigError } from '../config/config-error.js';
import { isLoopbackHost, isWildcardHost, readServiceEnv } from '../config/env.js';
import { dialHost } from '../config/api-url.js';
import { readInstanceEnv, writeInstanceEnv } from '../config/instance-env.js';
import { makeDirsSync } from '../config/make-dirs.js';
import { listModes, makePrivate, usePrivateUmask } from '../config/private-files.js';
import { defaultStaticDir, type Env, packageVersion, resolvePaths } from '../config/paths.js';
import { clockFromEnv } from '../config/clock.js';
import { loadSettings } from '../config/settings.js';
import { defaultRoots } from '../ingest/providers/index.js';
import { livePaths } from '../live/live-paths.js';
import { sessionLockRunner } from '../live/session-lock.js';
import { parseSpoolMaxBytes } from '../live/spool.js';
import { createMigrator } from '../migrations/runner.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/contract.js';
import { type FirstImport, startFirstImport } from './first-import.js';
import { type Live, startLive } from './live.js';
import { startSearchCatchUp } from './search-catch-up.js';
import { closeStalledUploads, stallTimeoutMs, timeoutServerOptions } from './timeouts.js';

export interface StartServerOptions {
  env?: Env;
  /** Overrides WEBAPI_HOST. */
  host?: string;
  /** Overrides WEBAPI_PORT (0 = any free port). */
  port?: number;
  /** Skip the first-start import of the agents' session folders. */
  noImport?: boolean;
  log?: (line: string) => void;
  /** Install SIGINT/SIGTERM handlers that close the server (the CLI does; tests may not). */
  handleSignals?: boolean;
  /** Watch the agents' session folders and record changes live (default true; serve --no-watch). */
  watch?: boolean;
  /** Hook spool replay period (default CT_SPOOL_REPLAY_MS or 60 s; 0 = never, not even at start). */
  replayEveryMs?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  store: Store;
  /** Settles when the first-start import has ended or was skipped. */
  importDone: Promise<void>;
  /** Live recording: the projects watcher and the hook spool replay. */
  live: Live;
  /** Stops accepting requests, ends the import, closes the store. Idempotent. */
  close(): Promise<void>;
  /** Settles once the server has been closed (by `close()` or a signal). */
  closed: Promise<void>;
}

/** Host names a request may carry besides loopback: the bound host, or every local address for a wildcard bind. */
function boundHostNames(host: string, extra: string[]): string[] {
  const names = [...extra];
  if (isWildcardHost(host)) {
    names.push(hostname());
    for (const addrs of Object.values(networkInterfaces()))
      for (const a of addrs ?? []) names.push(a.address);
  } else {
    names.push(host);
  }
  return names;
}

/** Whether a transcripts API answers its health route at `url` within a second. */
async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return res.ok || res.status === 401;
  } catch {
    return false;
  }
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE')
        reject(
          new ConfigError(
            `port ${port} on ${host} is already in use (another \`transcripts serve\`?); set WEBAPI_PORT or pass --port`,
          ),
        );
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
        reject(new ConfigError(`cannot listen on ${host}: no such local address (WEBAPI_HOST / --host)`));
      else if (err.code === 'EACCES')
        reject(new ConfigError(`not allowed to listen on port ${port} (choose one above 1023)`));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** An instance from before files were private (or copied in with cp): made private, and said so. */
function repairModes(dataDir: string, log: (line: string) => void): void {
  const { changed, failed } = makePrivate(dataDir);
  if (changed.length > 0)
    log(
      `file modes: made ${changed.length} path${changed.length === 1 ? '' : 's'} in ${dataDir} private ` +
        `(0700 directories, 0600 files; others could read them): ${listModes(changed)}`,
    );
  if (failed.length > 0)
    log(
      `warning: file modes: cannot make ${failed.length} path${failed.length === 1 ? '' : 's'} in ${dataDir} private ` +
        `(${failed[0]!.error}): ${listModes(failed)}; other users of this machine may read them`,
    );
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.log(line));
  const svc = readServiceEnv(env);
  const host = options.host ?? svc.host;
  const port = options.port ?? svc.port;
  if (!isLoopbackHost(host) && !svc.apiToken)
    throw new ConfigError(
      `refusing to listen on ${host} without CT_API_TOKEN: any machine that can reach it could read and write ` +
        'your history. Set CT_API_TOKEN=<a long random secret> (clients send "Authorization: Bearer <secret>"), ' +
        'or listen on 127.0.0.1.',
    );
  const spoolMaxBytes = parseSpoolMaxBytes(env.CT_SPOOL_MAX_BYTES);
  if (spoolMaxBytes === null) {
    throw new ConfigError(
      `CT_SPOOL_MAX_BYTES must be a whole number of bytes, got "${env.CT_SPOOL_MAX_BYTES}"`,
    );
  }

  const stallMs = stallTimeoutMs(env);

  const paths = resolvePaths(env);
  usePrivateUmask();
  makeDirsSync(paths.dataDir);
  repairModes(paths.dataDir, log);
  const { settings, warnings } = loadSettings(paths.configFile);
  for (const w of warnings) log(`settings: ${w}`);
  const clock = clockFromEnv(env);
  if (clock.problem) log(`clock: ${clock.problem}`);
  if (clock.pinned) log(`clock: pinned at ${clock.pinned} (CT_NOW)`);
  const version = packageVersion();

  const store = await openStore({ dataDir: paths.dataDir, env });
  try {
    const migrator = createMigrator(store);
    const before = await migrator.status();
    if (before.pending.length === 0) {
      log(`migrations: schema version ${before.currentVersion} is current`);
    } else {
      const result = await migrator.up({});
      const applied = result.steps.filter((s) => s.status === 'applied');
      log(
        `migrations: applied ${applied.length} pending (${applied.map((s) => `${s.version} ${s.name}`).join(', ') || 'none'}); ` +
          `schema version ${result.from} → ${result.to}`,
      );
      if (result.error) log(`migrations: FAILED: ${result.error} — the API runs degraded; see /api/health`);
    }
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }

  // The import starts once the port is bound, so a refused bind never leaves it running.
  const importer: { current?: FirstImport } = {};
  const liveHolder: { current?: Live } = {};
  // Every agent's session folders (src/ingest/providers/): imported at first start, then watched.
  const roots = defaultRoots(env);
  const watch = options.watch ?? true;
  const app = createApp({
    store,
    settings,
    version,
    importStatus: () =>
      importer.current?.status() ?? {
        state: 'idle',
        roots,
        filesTotal: 0,
        filesDone: 0,
        bytesTotal: 0,
        bytesDone: 0,
      },
    watchStatus: () =>
      liveHolder.current?.watchReport() ?? {
        enabled: watch,
        trees: roots.map((path) => ({ path, state: watch ? ('starting' as const) : ('off' as const) })),
      },
    staticDir: svc.staticDir ?? defaultStaticDir(),
    token: svc.apiToken,
    allowedHosts: boundHostNames(host, svc.allowedHosts),
    logError: (m) => log(`error: ${m}`),
    now: clock.now,
  });

  const server = createAdaptorServer({
    fetch: app.fetch,
    serverOptions: timeoutServerOptions(stallMs),
  }) as Server;
  closeStalledUploads(server, stallMs, log);
  // Requests Node refuses before the app sees them (headers over its 16 KiB limit, say) are
  // answered in the API's error shape rather than with a bare status line.
  server.on('clientError', onClientError());
  let address: AddressInfo;
  try {
    address = await listen(server, host, port);
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  const dial =
    address.family === 'IPv6'
      ? `[${address.address === '::' ? '::1' : address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  const url = `http://${dial}:${address.port}`;
  // Another server of this config dir may be running (a second `serve --port …` beside the
  // installed one): clients follow instance.env to this one while it runs, and back afterwards.
  const ours = { WEBAPI_HOST: host, WEBAPI_PORT: String(address.port) };
  const previous = readInstanceEnv(paths.instanceEnvFile);
  const previousUrl =
    previous.WEBAPI_PORT && previous.WEBAPI_PORT !== ours.WEBAPI_PORT
      ? `http://${dialHost(previous.WEBAPI_HOST ?? '127.0.0.1')}:${previous.WEBAPI_PORT}`
      : null;
  if (previousUrl && (await answers(previousUrl)))
    log(
      `note: another transcripts serve answers at ${previousUrl} over this config dir; clients that read ` +
        `${paths.instanceEnvFile} use this one until it stops, then that one again`,
    );
  try {
    writeInstanceEnv(paths.instanceEnvFile, ours);
  } catch (err) {
    log(`warning: cannot write ${paths.instanceEnvFile}: ${(err as Error).message}`);
  }
  /**
   * At stop: instance.env names the earlier server again, whether or not it answers now — it is
   * the installed instance (or the one the user started first), which may be only stopped for
   * now; this one's port would be dead for good.
   */
  const handBack = async () => {
    const now = readInstanceEnv(paths.instanceEnvFile);
    if (!previousUrl || now.WEBAPI_PORT !== ours.WEBAPI_PORT || now.WEBAPI_HOST !== ours.WEBAPI_HOST) return;
    try {
      writeInstanceEnv(paths.instanceEnvFile, previous);
      log(`instance.env names ${previousUrl} again`);
    } catch {
      // the file stays ours; clients then say nothing answers there
    }
  };

  const lockRunner = sessionLockRunner(livePaths(paths.dataDir));
  const started = startFirstImport({
    store,
    roots,
    enabled: !options.noImport,
    log,
    runSession: lockRunner,
    secretPatterns: settings.secretPatterns,
  });
  importer.current = started;
  const replayEnv = Number(env.CT_SPOOL_REPLAY_MS);
  const live = startLive({
    store,
    dataDir: paths.dataDir,
    roots,
    watch,
    replayEveryMs:
      options.replayEveryMs ??
      (env.CT_SPOOL_REPLAY_MS?.trim() && Number.isFinite(replayEnv) && replayEnv >= 0 ? replayEnv : 60_000),
    spoolMaxBytes,
    importDone: started.done,
    importEnabled: !options.noImport,
    log,
    now: clock.now,
    secretPatterns: settings.secretPatterns,
  });
  liveHolder.current = live;
  const searchCatchUp = startSearchCatchUp(store, started.done, log);

  let closing: Promise<void> | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((r) => (markClosed = r));
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log(`${signal} again: exiting now`);
      process.exit(130);
    }
    log(`${signal}: shutting down`);
    void close();
  };
  function close(): Promise<void> {
    closing ??= (async () => {
      started.abort();
      searchCatchUp.stop();
      await started.done;
      await live.close();
      await searchCatchUp.done;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 3000).unref();
      });
      await store.close();
      await handBack();
      if (options.handleSignals) {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      log('stopped');
      markClosed();
    })();
    return closing;
  }
  if (options.handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // Said last: whoever waits for this line (a supervisor, a test) may stop the server at once.
  log(
    `transcripts ${version} listening on http://${host.includes(':') ? `[${host}]` : host}:${address.port} — UI ${url}/app/, API reference ${url}/api/docs`,
  );
  if (svc.apiToken) log('auth: bearer token required (CT_API_TOKEN)');

  return { url, host, port: address.port, store, importDone: started.done, live, close, closed };
}
