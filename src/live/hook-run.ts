/**
 * One `transcripts hook` call: payload → event document → delivered to the API together with the
 * transcript bytes appended since the last call — or spooled when the API does not answer, and
 * the spool replayed in order by the next call that reaches it. Returns the log line it wrote;
 * never throws (the caller exits 0 whatever happens).
 *
 * Kept light on purpose: Claude Code waits for the hook (a PreToolUse hook holds up the tool), so
 * this module's import graph has no zod, no commander and no server code; see
 * test/live/hook-import-graph.test.ts.
 */
import { readSecretPatterns } from '../secrets/patterns.js';
import { stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isAbsolute } from 'node:path';
import { ApiClient } from '../client/api-client.js';
import { httpSink } from '../client/http-sink.js';
import { resolveApiToken } from '../config/api-token.js';
import { describeApiUrl, resolveApiUrl } from '../config/api-url.js';
import { clockFromEnv } from '../config/clock.js';
import { type Env, envValue, resolvePaths } from '../config/paths.js';
import { hookEventDoc, payloadHash } from './hook-event.js';
import { writeHookLog, type HookLogLine } from './hook-log.js';
import { parseHookPayload } from './hook-payload.js';
import { httpFetch } from './http-fetch.js';
import { livePaths } from './live-paths.js';
import { createSender, errorMessage } from './sender.js';
import {
  appendToSpool,
  deliverRecords,
  rejectRecord,
  replaySpool,
  spoolMaxBytes,
  spoolPending,
  type SpoolConfig,
  type SpoolRecord,
} from './spool.js';

export interface RunHookOptions {
  /** What stdin carried (at most the input cap). */
  input: Buffer;
  /** Bytes stdin carried in all. */
  totalBytes?: number;
  env: Env;
}

/** Whole-call budget for talking to the API; past it, what is left is spooled. */
const DEFAULT_BUDGET_MS = 8000;
/** One request may take at most this long. */
const REQUEST_TIMEOUT_MS = 5000;
/** Waiting for another ingester of the same session (parallel hooks, the watcher). */
const SHIP_WAIT_MS = 3000;
const SHIP_WAIT_END_MS = 6000;
/** Waiting for a replay already running in another process. */
const REPLAY_WAIT_MS = 500;

function timeoutFetch(budget: AbortSignal): typeof fetch {
  const base = httpFetch();
  return (input, init = {}) => {
    const signals = [budget, AbortSignal.timeout(REQUEST_TIMEOUT_MS)];
    if (init.signal) signals.push(init.signal);
    return base(input, { ...init, signal: AbortSignal.any(signals) });
  };
}

export async function runHook(options: RunHookOptions): Promise<HookLogLine> {
  const started = performance.now();
  const env = options.env;
  const notes: string[] = [];
  const line: HookLogLine = {
    at: new Date().toISOString(),
    ms: 0,
    event: null,
    sessionId: null,
    outcome: 'skipped',
  };
  let logPath: string | null = null;
  try {
    const instance = resolvePaths(env);
    const paths = livePaths(instance.dataDir);
    logPath = paths.hookLog;
    const clock = clockFromEnv(env);
    if (clock.problem) notes.push(clock.problem);

    const payload = parseHookPayload(options.input, options.totalBytes ?? options.input.length);
    line.event = payload.event;
    line.sessionId = payload.sessionId;
    if (payload.problems.length) line.problems = payload.problems;
    if (payload.sessionId === null) return line;

    const host = hostname();
    const doc = hookEventDoc({ ...payload, sessionId: payload.sessionId }, payloadHash(options.input), {
      now: clock.now(),
      hostname: host,
    });
    const tp = payload.transcriptPath;
    let transcript: SpoolRecord['transcript'] = null;
    if (tp && isAbsolute(tp) && tp.endsWith('.jsonl'))
      transcript = { path: tp, size: (await stat(tp).catch(() => null))?.size ?? null };
    else if (tp)
      notes.push(
        `transcript_path ${JSON.stringify(tp.slice(0, 200))} is not an absolute .jsonl path: not shipped`,
      );
    const record: SpoolRecord = { v: 1, at: line.at, sessionId: payload.sessionId, doc, transcript };

    const spool: SpoolConfig = {
      dir: paths.spoolDir,
      lockPath: paths.spoolLock,
      maxBytes: spoolMaxBytes(envValue(env, 'CT_SPOOL_MAX_BYTES')),
      log: (m) => notes.push(m),
    };
    const spoolIt = async (why: string) => {
      record.reason = why;
      const r = await appendToSpool(spool, record);
      line.outcome = r.status === 'lost' ? 'failed' : 'spooled';
      if (r.status === 'lost') notes.push(r.why);
    };

    let api;
    try {
      api = resolveApiUrl({ env });
    } catch (err) {
      line.error = errorMessage(err);
      await spoolIt(`no API address: ${line.error}`);
      return line;
    }
    line.api = api.url;
    const budget = AbortSignal.timeout(Number(envValue(env, 'CT_HOOK_BUDGET_MS')) || DEFAULT_BUDGET_MS);
    const client = new ApiClient({
      baseUrl: api.url,
      // The environment's CT_API_TOKEN, else the one `hooks install` stored: Claude Code's
      // environment need not hold it.
      token: resolveApiToken(env, api.url).token,
      origin: describeApiUrl(api),
      fetch: timeoutFetch(budget),
    });
    const sender = createSender({
      sink: httpSink(client),
      writeDocs: async (docs) => (await client.ingestDocs(docs)).results,
      probe: async () => void (await client.getRevs([])),
      hostname: host,
      paths,
      signal: budget,
      secretPatterns: readSecretPatterns(instance.configFile),
    });
    const shipWaitMs =
      payload.event === 'SessionEnd' || payload.event === 'Stop' ? SHIP_WAIT_END_MS : SHIP_WAIT_MS;

    const deliver = async () => {
      try {
        const r = await deliverRecords(sender, [record], { shipWaitMs, log: spool.log });
        line.shipped = r.bytesShipped;
        for (const x of r.rejected) {
          line.outcome = 'rejected';
          line.error = x.error;
          await rejectRecord(spool, x.record, x.error);
        }
        return true;
      } catch (err) {
        line.error = errorMessage(err);
        await spoolIt(line.error);
        return false;
      }
    };

    if (!spoolPending(spool.dir)) {
      // The common case: straight to the API.
      if ((await deliver()) && line.outcome !== 'rejected') line.outcome = 'sent';
      return line;
    }

    // Older records wait: replay them first (in order), then this one goes after them — straight
    // to the API when the replay got through, else behind them in the spool.
    const r = await replaySpool(spool, sender, { lockWaitMs: REPLAY_WAIT_MS, shipWaitMs, hostname: host });
    if (r.busy) {
      notes.push('another process is replaying the spool');
      await spoolIt('another process is replaying the spool');
    } else if (r.failed) {
      line.error = r.failed;
      await spoolIt(r.failed);
    } else {
      line.replayed = r.records;
      if ((await deliver()) && line.outcome !== 'rejected') line.outcome = 'replayed';
    }
    return line;
  } catch (err) {
    // Anything unexpected: the call still succeeds for Claude Code; the log says what happened.
    line.outcome = 'failed';
    line.error = errorMessage(err);
    return line;
  } finally {
    line.ms = Math.round(performance.now() - started);
    if (notes.length) line.notes = notes;
    if (logPath) writeHookLog(logPath, line);
  }
}
