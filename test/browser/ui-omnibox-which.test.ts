/**
 * The omnibox never silently picks one of several values (issue 36, item 10), in a real browser
 * over the corpus: `model:opus` (several Opus models), `host:test` (two hosts) and `source:i`
 * (`backfill` and `live`) are each not applied on Enter; the dropdown asks which one, listing
 * every candidate with its session count as GET /api/facets counts it; picking one puts it in
 * the input where the operator stands, and Enter then filters by it exactly.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.js';
import { httpSink } from '../../src/client/http-sink.js';
import { ingestSession } from '../../src/ingest/ingest-session.js';
import { getJson, runCli } from '../support/api-server.js';
import { writeOneSessionTree } from './fixtures.js';
import { browserSuite, corpusServer, hasChromium, screenshot, skipReason, urlParams } from './harness.js';

if (!hasChromium) console.log(skipReason);

interface FacetValue {
  value: string;
  sessions: number;
}

const LIVE_ID = '7e57ab1e-0000-4000-8000-00000000a11e';

describe.skipIf(!hasChromium)('the omnibox asks which one of several values, in Chromium', () => {
  const suite = browserSuite(async (staticDir) => {
    const server = await corpusServer(staticDir);
    // A second host, and a session recorded live: each operator then has a value matching two.
    const other = writeOneSessionTree('7e57ab1e-0000-4000-8000-0000000000b2', '/tmp/which/other-host', {
      prompt: 'from the other host',
      answer: 'noted',
      timestamp: '2025-10-01T09:00:00.000Z',
    });
    const b = await runCli(['backfill', '--dir', other, '--webapi', server.url, '--host', 'test-host-b'], {
      env: server.env,
    });
    expect(b.code, b.stderr).toBe(0);
    const dir = await mkdtemp(path.join(tmpdir(), 'ct-which-live-'));
    const file = path.join(dir, `${LIVE_ID}.jsonl`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      file,
      [
        {
          type: 'user',
          uuid: 'lu',
          parentUuid: null,
          sessionId: LIVE_ID,
          cwd: '/tmp/which/live',
          timestamp: '2025-10-02T09:00:00.000Z',
          message: { role: 'user', content: 'recorded live' },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    // What the hook does for a live session: the real ingest, through the API, as `live`.
    await ingestSession({
      sessionId: LIVE_ID,
      files: [{ path: file, objectName: 'transcript.jsonl' }],
      sink: httpSink(new ApiClient({ baseUrl: server.url })),
      hostname: 'test-host',
      source: 'live',
      provenance: 'live',
    });
    await rm(dir, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
    return server;
  });

  const omnibox = (page: Page) => page.getByTestId('omnibox');
  const facets = async (attr: string) =>
    (await getJson<{ values: FacetValue[] }>(suite.server, `/api/facets/${attr}`)).body.values;

  const cases: Array<{ attr: string; param: string; typed: string; contains: string }> = [
    { attr: 'model', param: 'model', typed: 'model:opus', contains: 'opus' },
    { attr: 'hostname', param: 'hostname', typed: 'host:test', contains: 'test' },
    { attr: 'source', param: 'source', typed: 'source:i', contains: 'i' },
  ];

  for (const c of cases)
    it(`${c.typed} matching several values is not applied: it asks which one, with counts`, async () => {
      const all = await facets(c.attr);
      const matching = all.filter((f) => f.value.toLowerCase().includes(c.contains));
      expect(matching.length).toBeGreaterThan(1);

      const page = await suite.open('/app/', { width: 1440, height: 900 });
      await page.getByTestId('session-row').first().waitFor();
      await omnibox(page).click();
      // The operator not at the end: the value list is not what asks, the "which one?" group is.
      await omnibox(page).fill(`${c.typed} the`);
      const which = page.getByTestId('omnibox-which');
      await which.waitFor();
      const shown = await which.getByTestId('omnibox-candidate').evaluateAll((els) =>
        els.map((el) => ({
          value: el.querySelector('[data-testid="omnibox-candidate-name"]')!.textContent,
          sessions: Number(el.querySelector('[data-testid="omnibox-candidate-count"]')!.textContent),
        })),
      );
      // Every candidate, with its count, busiest first.
      expect(shown).toEqual(
        [...matching]
          .sort((a, b) => b.sessions - a.sessions || a.value.localeCompare(b.value))
          .slice(0, 8)
          .map((f) => ({ value: f.value, sessions: f.sessions })),
      );
      await screenshot(page, `omnibox-which-${c.attr}`);

      // Enter filters by the rest, never by a guess; the problem names the candidates.
      await omnibox(page).press('Enter');
      const problem = page.getByTestId('omnibox-problem').filter({ hasText: `${c.typed} matches` });
      await problem.first().waitFor();
      expect(await problem.first().textContent()).toContain('not applied');
      await expect.poll(() => urlParams(page).get('text')).toBe('the');
      expect(urlParams(page).get(c.param)).toBeNull();

      // Picking one puts it where the operator stands; Enter then filters by it exactly.
      const target = shown[shown.length - 1]!;
      await page
        .getByTestId('omnibox-candidate')
        .filter({ has: page.getByText(target.value!, { exact: true }) })
        .click();
      const op = c.typed.split(':')[0]!;
      await expect.poll(() => omnibox(page).inputValue()).toBe(`${op}:${target.value} the`);
      await omnibox(page).fill(`${op}:${target.value}`);
      await omnibox(page).press('Enter');
      await expect.poll(() => urlParams(page).get(c.param)).toBe(target.value);
      await expect.poll(() => page.getByTestId('session-row').count()).toBe(target.sessions);
      suite.current.assertNoErrors();
    });
});
