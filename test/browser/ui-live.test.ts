/**
 * A running session's page follows its transcript as it grows, in a real browser (Debian's
 * Chromium through playwright-core) against a real `transcripts serve` whose watcher records a
 * file under its HOME's ~/.claude/projects. The server's clock (CT_NOW) stands just after the
 * first part of the session, so it is `running`; lines appended to the file show up at the end of
 * the readers and in the counts without a reload. No test asserts on timing.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getJson, startTestServer, type TestServer } from '../support/api-server.js';
import { claudeCorpusDir } from '../support/paths.js';
import { browserSuite, hasChromium, serverRoot, skipReason } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const window: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const ID = '1af7fc5e-8455-4414-9ccd-011d40f70b2a'; // 29 lines; the last is Claude's summary
const SOURCE = path.join(claudeCorpusDir, 'd-kimuson__claude-code-viewer', `${ID}.jsonl`);
const FIRST = 15;

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('a running session in Chromium', () => {
  let server: TestServer;
  let transcript: string;
  const lines = readFileSync(SOURCE, 'utf8').split('\n').filter(Boolean);
  const suite = browserSuite(async (staticDir) => {
    const root = serverRoot({
      userSettings: { transcriptPageSize: 10, transcriptAutoLoadMax: 200, sessionListPageSize: 10 },
    });
    const project = path.join(root, 'home', '.claude', 'projects', '-work-app');
    mkdirSync(project, { recursive: true });
    transcript = path.join(project, `${ID}.jsonl`);
    writeFileSync(transcript, lines.slice(0, FIRST).join('\n') + '\n');
    const last = (JSON.parse(lines[FIRST - 1]!) as { timestamp: string }).timestamp;
    // The server's clock stands just after the first part: the session is running all along.
    const now = new Date(Date.parse(last) + 60_000).toISOString();
    server = await startTestServer({ root, env: { CT_STATIC_DIR: staticDir, CT_NOW: now } });
    return server;
  });

  it('shows appended entries at the end of the readers and updates the counts, without a reload', async () => {
    // The first start imports the file; the watcher records what is appended after.
    await expect
      .poll(async () => (await getJson(server, `/api/sessions/${ID}`)).body?.counts?.entries, {
        timeout: 30_000,
      })
      .toBe(FIRST);
    await expect.poll(() => /watch: recording changes/.test(server.logs()), { timeout: 30_000 }).toBe(true);
    expect((await getJson(server, `/api/sessions/${ID}`)).body.status).toBe('running');
    const page = await suite.open(undefined, { height: 600 });
    // The details panel open (a remembered choice): with it folded, 15 entries may not fill the
    // page enough to scroll, and the update must be seen keeping a scroll position.
    await page.addInitScript(() => window.localStorage.setItem('transcripts.sessionDetails.v1', 'open'));
    await page.goto(`${server.url}/app/sessions/${ID}?view=both`);
    const count = page.getByTestId('loaded-count');
    // Running reads "live", with the pulsing dot.
    const status = page.getByTestId('session-details').getByTestId('status');
    await expect.poll(() => status.getAttribute('data-status')).toBe('running');
    expect(await status.getByTestId('status-label').textContent()).toBe('live');
    await expect.poll(() => count.textContent()).toBe(`All ${FIRST} entries loaded`);
    await expect.poll(() => page.getByTestId('detail-entries').textContent()).toMatch(/^15 ·/);
    // A mark that a reload would lose, and a scroll position the update must keep.
    await page.evaluate(() => {
      window.__notReloaded = true;
      window.scrollTo(0, 200);
    });
    const scrollY = await page.evaluate(() => window.scrollY as number);
    expect(scrollY).toBeGreaterThan(0);
    const summary = "I've created a basic CLAUDE.md";
    expect(await page.getByTestId('conversation-reader').textContent()).not.toContain(summary);

    appendFileSync(transcript, lines.slice(FIRST).join('\n') + '\n');

    await expect
      .poll(() => count.textContent(), { timeout: 30_000 })
      .toBe(`All ${lines.length} entries loaded`);
    await expect
      .poll(() => page.getByTestId('detail-entries').textContent())
      .toMatch(new RegExp(`^${lines.length} ·`));
    expect(await page.evaluate(() => window.__notReloaded === true)).toBe(true);
    expect(await page.evaluate(() => window.scrollY as number)).toBe(scrollY);
    // The new entries sit at the end of the conversation reader…
    await page.keyboard.press('End');
    await expect.poll(() => page.getByTestId('conversation-reader').textContent()).toContain(summary);
    // …and of the raw reader, over the same pages.
    await page.getByTestId('reader-toggle').getByText('Raw').click();
    // End once the raw reader is drawn: pressed before, it scrolls the conversation reader's page
    // (one failure in a loaded run: the last raw row never came into view).
    await page.getByTestId('raw-row').first().waitFor();
    await page.keyboard.press('End');
    await expect
      .poll(() => page.locator(`[data-testid="raw-row"][data-entry="${lines.length - 1}"]`).count())
      .toBe(1);
    // The You/Claude views have the new turns too.
    await page.getByTestId('view-toggle').getByText('Claude').click();
    await expect.poll(() => page.getByTestId('turn').last().textContent()).toContain(summary);
    expect(await page.evaluate(() => window.__notReloaded === true)).toBe(true);
    suite.current.assertNoErrors();
  });
});
