/**
 * `transcripts secrets` over the shared corpus plus one session holding a made-up secret of every
 * rule family, on each engine: the counts ingest stored, and those of `--rescan`, equal by rule an
 * independent count — secretlint's own lintSource with the recommended preset, run here over each
 * session's unredacted Markdown — and it lists only the sessions with findings, printing no
 * secret. The list filters on the stored counts: `GET /api/sessions?hasSecrets=true` and
 * `transcripts sessions --has-secrets`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getJson, runCli, startTestServer, type TestServer } from '../support/api-server.js';
import { assistantRecord, transcriptLines, userRecord } from '../support/hand-made-transcript.js';
import { describeEngines } from '../support/engines.js';
import { plantedSecrets, type PlantedSecret } from '../support/planted-secrets.js';

const ID = '5ec2e75a-0000-4000-8000-000000000038';
let server: TestServer;
let planted: PlantedSecret[];
const work = mkdtempSync(path.join(tmpdir(), 'ct-secrets-'));

/** secretlint itself, apart from src/secrets: findings by short rule name in `text`. */
async function independentCount(text: string): Promise<Record<string, number>> {
  const result = await lintSource({
    source: { filePath: 'session.md', content: text, contentType: 'text', ext: '.md' },
    options: {
      config: { rules: [{ id: creator.meta.id, rule: creator, options: {} }] },
      noPhysicFilePath: true,
    },
  });
  const out: Record<string, number> = {};
  for (const m of result.messages) {
    const rule = m.ruleId.replace('@secretlint/secretlint-rule-', '');
    out[rule] = (out[rule] ?? 0) + 1;
  }
  return out;
}

describeEngines('transcripts secrets', (engine) => {
  beforeAll(async () => {
    planted = plantedSecrets();
    const dir = path.join(work, 'tree', 'proj');
    mkdirSync(dir, { recursive: true });
    // A plain first prompt: the title is the first prompt, and it would hold a secret twice.
    const records = [
      userRecord('u', 'here are the keys'),
      ...planted.flatMap((p, i) => [userRecord(`u${i}`, p.text), assistantRecord(`a${i}`, 'noted')]),
    ];
    writeFileSync(
      path.join(dir, `${ID}.jsonl`),
      `${transcriptLines(records, { sessionId: ID, start: '2025-10-01T00:00:00.000Z', fields: { cwd: '/w' } }).join('\n')}\n`,
    );
    server = await startTestServer({ corpus: engine });
    const r = await runCli(['backfill', '--dir', path.join(work, 'tree'), '--webapi', server.url], {
      env: server.env,
    });
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('counts by rule what secretlint finds in each session, over the corpus', async () => {
    const r = await runCli(['secrets', '--all', '--json', '--webapi', server.url], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as Array<{
      id: string;
      redactions: Record<string, number>;
      counted: string;
    }>;
    // Every session was counted at ingest: nothing needed a scan.
    expect(listed.filter((s) => s.counted !== 'ingest')).toEqual([]);
    const total = (await getJson(server, '/api/sessions?limit=0')).body.total;
    expect(listed.length).toBe(total);
    for (const s of listed) {
      const md = await (
        await fetch(
          `${server.url}/api/sessions/${encodeURIComponent(s.id)}/share?format=markdown&redact=false`,
        )
      ).text();
      expect(s.redactions, s.id).toEqual(await independentCount(md));
    }
    const mine = listed.find((s) => s.id === ID)!;
    const expected: Record<string, number> = {};
    for (const p of planted) expected[p.rule] = (expected[p.rule] ?? 0) + 1;
    expect(mine.redactions).toEqual(expected);

    // --rescan scans each session now, as share would redact it: the same counts.
    const again = await runCli(['secrets', '--all', '--json', '--rescan', '--webapi', server.url], {
      env: server.env,
    });
    expect(again.code, again.stderr).toBe(0);
    const rescanned = JSON.parse(again.stdout) as typeof listed;
    expect(rescanned.every((s) => s.counted === 'scan')).toBe(true);
    expect(rescanned.map((s) => [s.id, s.redactions])).toEqual(listed.map((s) => [s.id, s.redactions]));
  });

  it('filters the list on sessions holding secrets: the API and `sessions --has-secrets`', async () => {
    const api = await getJson(server, '/api/sessions?hasSecrets=true');
    expect(api.status).toBe(200);
    expect(api.body.sessions.map((s: { id: string }) => s.id)).toEqual([ID]);
    expect(api.body.sessions[0].secrets.total).toBe(planted.length);
    const all = await getJson(server, '/api/sessions?limit=500');
    expect(all.body.total).toBeGreaterThan(1);
    for (const s of all.body.sessions as Array<{ id: string; secrets: { total: number } | null }>)
      expect(s.secrets, s.id).toMatchObject({ total: s.id === ID ? planted.length : 0 });
    expect((await getJson(server, '/api/sessions?hasSecrets=maybe')).status).toBe(400);

    const cli = await runCli(['sessions', '--has-secrets', '--json', '--webapi', server.url], {
      env: server.env,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id)).toEqual(
      [ID],
    );
    for (const p of planted) expect(JSON.stringify(api.body) + cli.stdout).not.toContain(p.secret);
  });

  it('lists only the sessions holding secrets, and never a secret', async () => {
    const r = await runCli(['secrets', '--webapi', server.url], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(ID.slice(0, 12));
    expect(r.stdout).toMatch(/1 session of \d+ holds likely secrets \(10 findings\)/);
    for (const p of planted) expect(r.stdout + r.stderr).not.toContain(p.secret);
  });
});
