/**
 * What a person marks on a session, in a real browser over a real server: the star toggle, tag
 * chips and the note panel on the session page write the annotation (read back through the API),
 * the list's URL filters (`?starred=true`, `?tag=`) and its tag facet show the marked session,
 * full-text search finds the note, and forgetting asks
 * first, naming what goes, then removes the session.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getJson, runCli, startTestServer } from '../support/api-server.js';
import { POMODORO, RATE_LIMIT } from '../support/corpus-sessions.js';
import { claudeCorpusDir } from '../support/paths.js';
import { browserSuite, hasChromium, screenshot, skipReason } from './harness.js';

let tree = '';

describe.skipIf(!hasChromium)(hasChromium ? 'annotations in the web UI' : skipReason, () => {
  const suite = browserSuite(
    async (staticDir) => {
      tree = await mkdtemp(path.join(os.tmpdir(), 'ct-ui-annot-'));
      await mkdir(path.join(tree, 'p'));
      for (const f of [
        'yoavf__ai-sessions/claude-code-pomodoro-timer.jsonl',
        'slopus__happy/rate-limit.jsonl',
      ])
        await copyFile(path.join(claudeCorpusDir, f), path.join(tree, 'p', path.basename(f)));
      const server = await startTestServer({ args: ['--no-import'], env: { CT_STATIC_DIR: staticDir } });
      const r = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
      expect(r.code, r.stderr).toBe(0);
      return server;
    },
    () => void rm(tree, { recursive: true, force: true }),
  );
  const annotation = async (id: string) =>
    (await getJson(suite.server, `/api/sessions/${id}/annotations`)).body;

  it('stars, tags and notes a session from its page, and the list filters find it', async () => {
    const page = await suite.open(`/app/sessions/${POMODORO}`);
    const star = page.getByTestId('star-toggle');
    await star.waitFor();
    await star.click();
    await page.locator('[data-testid="star-toggle"][aria-pressed="true"]').waitFor();
    expect((await annotation(POMODORO)).starred).toBe(true);

    const tags = page.getByTestId('tag-input');
    await tags.click();
    await page.keyboard.type('demo');
    await page.keyboard.press('Enter');
    await page.getByText('demo', { exact: true }).waitFor();
    await expect.poll(async () => (await annotation(POMODORO)).tags).toEqual(['demo']);

    await page.getByTestId('note-input').fill('Works; see the **timer**');
    await page.getByTestId('note-save').click();
    await page.getByTestId('note-save').waitFor({ state: 'detached' });
    expect((await annotation(POMODORO)).note).toBe('Works; see the **timer**');

    // The bookmark key: j marks the first item, b bookmarks its entry, b again removes it.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.locator('[aria-current="true"]').first().waitFor();
    await page.keyboard.press('b');
    await page.getByTestId('bookmark-list').waitFor();
    const marked = (await annotation(POMODORO)).bookmarks;
    expect(marked).toHaveLength(1);
    expect((await getJson(suite.server, '/api/bookmarks')).body.bookmarks[0]).toMatchObject({
      sessionId: POMODORO,
      index: marked[0].index,
    });
    await page.keyboard.press('b');
    await page.getByTestId('bookmark-list').waitFor({ state: 'detached' });
    expect((await annotation(POMODORO)).bookmarks).toEqual([]);

    // Full-text search finds the note, among the entries' hits; its hit opens the session.
    await page.goto(`${suite.server.url}/app/search?q=${encodeURIComponent('"see the timer"')}`);
    const noteHit = page.locator('[data-testid="search-hit"][data-kind="note"]');
    await noteHit.waitFor();
    expect(await noteHit.count()).toBe(1);
    expect(await noteHit.innerText()).toMatch(/note on the session/);
    expect(await noteHit.innerText()).toContain('Works; see the **timer**');
    await screenshot(page, 'annotations-note-search');
    await noteHit.click();
    await page.waitForURL((u) => u.pathname === `/app/sessions/${POMODORO}`);
    expect(new URL(page.url()).searchParams.get('entry')).toBeNull();

    await page.goto(`${suite.server.url}/app/?starred=true&tag=demo`);
    await page.locator(`a[href*="${POMODORO}"]`).first().waitFor();
    expect(await page.locator(`a[href*="${RATE_LIMIT}"]`).count()).toBe(0);
    suite.current.assertNoErrors();
  });

  it("picks tags from the list's tag facet, with counts; every tag picked must match", async () => {
    const page = await suite.open('/app/');
    const facet = page.getByTestId('filter-tags');
    await facet.waitFor();
    await facet.click();
    const demo = page.getByRole('option', { name: 'demo (1)' });
    await demo.waitFor();
    await screenshot(page, 'annotations-tag-facet');
    await demo.click();
    await page.waitForURL((u) => u.searchParams.get('tag') === 'demo');
    await expect
      .poll(() =>
        page
          .getByTestId('session-row')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session-id'))),
      )
      .toEqual([POMODORO]);
    // A second tag no session carries with it: the list empties, and removing it brings it back.
    expect((await getJson(suite.server, '/api/tags')).body.tags).toEqual([{ value: 'demo', sessions: 1 }]);
    await page.goto(`${suite.server.url}/app/?tag=demo,other`);
    await page.getByTestId('filter-tags').waitFor();
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(0);
    // Backspace in the picker takes its last tag out.
    await page.getByTestId('filter-tags').click();
    await page.keyboard.press('Backspace');
    await page.waitForURL((u) => u.searchParams.get('tag') === 'demo');
    await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
    suite.current.assertNoErrors();
  });

  it('stars a session from its list row without opening it', async () => {
    const page = await suite.open('/app/');
    const star = page.locator(`[data-session-id="${RATE_LIMIT}"] [data-testid="row-star"]`);
    await star.waitFor();
    expect(await star.getAttribute('aria-pressed')).toBe('false');
    await star.click();
    await page
      .locator(`[data-session-id="${RATE_LIMIT}"] [data-testid="row-star"][aria-pressed="true"]`)
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/');
    expect((await annotation(RATE_LIMIT)).starred).toBe(true);
    // The other row shows its tag chip.
    expect(
      await page.locator(`[data-session-id="${POMODORO}"] [data-testid="row-tag"]`).allInnerTexts(),
    ).toEqual(['demo']);
    suite.current.assertNoErrors();
  });

  it('forgets a session only after a confirmation that names what goes', async () => {
    const page = await suite.open(`/app/sessions/${RATE_LIMIT}`);
    await page.getByTestId('forget-open').click();
    const dialog = page.getByTestId('forget-confirm');
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/removes .* for good: its \d+ transcript entries/);
    await page.getByTestId('forget-confirm-button').click();
    await page.waitForURL((u) => !u.pathname.includes(RATE_LIMIT));
    expect((await getJson(suite.server, `/api/sessions/${RATE_LIMIT}`)).status).toBe(404);
    expect((await getJson(suite.server, '/api/forgotten')).body.forgotten).toEqual([
      expect.objectContaining({ sessionId: RATE_LIMIT }),
    ]);
    suite.current.assertNoErrors([/404/]);
  });
});
