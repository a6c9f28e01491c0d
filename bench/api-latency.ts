/**
 * Latency of the HTTP API over a loaded instance: p50 and p99 of each read the UI makes, measured
 * with keep-alive requests from this process to a real `transcripts serve` child.
 */
import { performance } from 'node:perf_hooks';

export interface LatencyRow {
  name: string;
  p50: number;
  p99: number;
  target: number;
}

async function timeRequests(url: string, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface SessionBrief {
  id: string;
  cwd: string | null;
  models: string[];
  hostname: string | null;
  source: string;
  counts: { entries: number };
  startedAt: string | null;
}

export async function measureApi(base: string, requestsPerRoute = 200): Promise<LatencyRow[]> {
  const list = (await (await fetch(`${base}/api/sessions?limit=500`)).json()) as { sessions: SessionBrief[] };
  const sessions = list.sessions;
  if (sessions.length === 0) throw new Error('the instance holds no sessions');
  const big = [...sessions].sort((a, b) => b.counts.entries - a.counts.entries)[0]!;
  const some = sessions[Math.floor(sessions.length / 2)]!;
  const page = 100;
  const lastOffset = Math.max(0, big.counts.entries - page);
  const mid = sessions[Math.floor(sessions.length / 3)]!.startedAt ?? new Date().toISOString();
  const q = (s: string) => encodeURIComponent(s);
  const routes: Array<[string, string, number]> = [
    ['sessions: no filter', '/api/sessions?limit=100', 10],
    ['sessions: cwd', `/api/sessions?cwd=${q(some.cwd ?? '')}`, 10],
    ['sessions: model', `/api/sessions?model=${q(some.models[0] ?? 'x')}`, 10],
    ['sessions: hostname', `/api/sessions?hostname=${q(some.hostname ?? 'x')}`, 10],
    ['sessions: source', `/api/sessions?source=${q(some.source)}`, 10],
    [
      'sessions: time range',
      `/api/sessions?from=${q(new Date(Date.parse(mid) - 7 * 86_400_000).toISOString())}&to=${q(mid)}`,
      10,
    ],
    // No index orders these: every session (of the filter) is read and sorted.
    ['sessions: by tokens', '/api/sessions?sort=tokens&limit=100', 10],
    ['sessions: cwd, fewest entries', `/api/sessions?cwd=${q(some.cwd ?? '')}&sort=entries&dir=asc`, 10],
    ['one session', `/api/sessions/${big.id}`, 10],
    // Every session's token split summed by model (the list's totals line).
    ['totals: no filter', '/api/totals', 10],
    ['totals: cwd', `/api/totals?cwd=${q(some.cwd ?? '')}`, 10],
    ['transcript: first page', `/api/sessions/${big.id}/transcript?offset=0&limit=${page}`, 10],
    [
      'transcript: middle page',
      `/api/sessions/${big.id}/transcript?offset=${Math.floor(lastOffset / 2)}&limit=${page}`,
      10,
    ],
    ['transcript: last page', `/api/sessions/${big.id}/transcript?offset=${lastOffset}&limit=${page}`, 10],
    ['turns', `/api/sessions/${big.id}/turns?limit=${page}`, 10],
    // Turns across sessions: the newest page down the time index, counted over every turn.
    ['turns: across sessions', '/api/turns', 10],
    ['turns: yours, one project', `/api/turns?role=user&cwd=${q(some.cwd ?? '')}`, 10],
    [
      'turns: yours, one week',
      `/api/turns?role=user&from=${q(new Date(Date.parse(mid) - 7 * 86_400_000).toISOString())}&to=${q(mid)}`,
      10,
    ],
    ['turns: deep page', '/api/turns?offset=5000', 10],
    ['search: common word', `/api/search?q=the`, 30],
    ['search: rare word', `/api/search?q=pomodoro`, 30],
    // In about an eighth of the entries: past the ranking window, too few to be found by walking.
    ['search: frequent word', `/api/search?q=project`, 30],
    ['search: phrase', `/api/search?q=${q('"read the file"')}`, 30],
  ];
  const rows: LatencyRow[] = [];
  for (const [name, path, target] of routes) {
    await timeRequests(base + path, 10); // warm-up
    const times = await timeRequests(base + path, requestsPerRoute);
    rows.push({ name, p50: quantile(times, 0.5), p99: quantile(times, 0.99), target });
  }
  return rows;
}
