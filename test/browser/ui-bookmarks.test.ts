/**
 * Bookmarks in a real browser over a real server and corpus sessions: the bookmark button on a
 * reader entry sets the bookmark (read back through the API) and shows it set; the Bookmarks page
 * lists it with its session's title and the entry's time, its link opens the session at that
 * entry, and removing it there empties the page. A tool call and its result are bookmarked from
 * their lines, a bookmark's note is written on the entry and edited on the Bookmarks page, and
 * search finds it. No console errors throughout.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getJson, runCli, startTestServer } from '../support/api-server.js';
import { POMODORO } from '../support/corpus-sessions.js';
import { claudeCorpusDir } from '../support/paths.js';
import { browserSuite, hasChromium, screenshot, skipReason } from './harness.js';

let tree = '';

describe.skipIf(!hasChromium)(hasChromium ? 'bookmarks in the web UI' : skipReason, () => {
  const suite = browserSuite(
    async (staticDir) => {
      tree = await mkdtemp(path.join(os.tmpdir(), 'ct-ui-bookmarks-'));
      await mkdir(path.join(tree, 'p'));
      await copyFile(
        path.join(claudeCorpusDir, 'yoavf__ai-sessions/claude-code-pomodoro-timer.jsonl'),
        path.join(tree, 'p', 'claude-code-pomodoro-timer.jsonl'),
      );
      const server = await startTestServer({ args: ['--no-import'], env: { CT_STATIC_DIR: staticDir } });
      const r = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
      expect(r.code, r.stderr).toBe(0);
      return server;
    },
    () => void rm(tree, { recursive: true, force: true }),
  );
  const bookmarks = async () =>
    (await getJson(suite.server, `/api/sessions/${POMODORO}/annotations`)).body.bookmarks;

  it('bookmarks an entry from its button, lists it, links back to it and removes it', async () => {
    // The empty state first.
    const page = await suite.open('/app/bookmarks');
    await page.getByTestId('bookmarks-empty').waitFor();
    expect(await page.title()).toBe('Bookmarks · transcripts');

    await page.goto(`${suite.server.url}/app/sessions/${POMODORO}`);
    const reply = page.locator('[data-testid="msg-assistant"]:not([data-continues])').first();
    await reply.waitFor();
    const index = Number(await reply.getAttribute('data-entry'));
    const button = reply.getByTestId('entry-bookmark').first();
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect(await button.getAttribute('aria-label')).toBe(`Bookmark entry #${index}`);
    await button.click();
    await reply.locator('[data-testid="entry-bookmark"][aria-pressed="true"]').first().waitFor();
    expect(await bookmarks()).toEqual([expect.objectContaining({ file: 'transcript.jsonl', index })]);
    const title = (await getJson(suite.server, `/api/sessions/${POMODORO}`)).body.title as string;
    const entryAt = (
      await getJson(suite.server, `/api/sessions/${POMODORO}/transcript?offset=${index}&limit=1`)
    ).body.entries[0].timestamp as string;

    // Through the Sessions menu to the Bookmarks page.
    await page.getByRole('button', { name: 'Sessions' }).click();
    await page.getByRole('menuitem', { name: 'Bookmarks' }).click();
    await page.waitForURL((u) => u.pathname === '/app/bookmarks');
    const row = page.getByTestId('bookmark-row');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getByTestId('bookmark-link').innerText()).toBe(title);
    const shown = `${entryAt.slice(0, 10)} ${entryAt.slice(11, 16)} UTC`;
    await expect.poll(() => row.getByTestId('bookmark-entry-time').innerText()).toBe(shown);

    // Its link opens the session at that entry, shown bookmarked.
    await row.getByTestId('bookmark-link').click();
    await page.waitForURL((u) => u.pathname === `/app/sessions/${POMODORO}`);
    expect(new URL(page.url()).searchParams.get('entry')).toBe(String(index));
    const target = page.locator(`[data-entry="${index}"][data-target-entry]`).first();
    await target.waitFor();
    await target.locator('[data-testid="entry-bookmark"][aria-pressed="true"]').first().waitFor();

    // Removed from the Bookmarks page: gone from the API and the page shows its empty state.
    await page.goBack();
    await page.getByTestId('bookmark-remove').click();
    await page.getByTestId('bookmarks-empty').waitFor();
    expect(await bookmarks()).toEqual([]);

    // And the reader's button shows it unset.
    await page.goto(`${suite.server.url}/app/sessions/${POMODORO}?entry=${index}`);
    await page
      .locator(`[data-entry="${index}"] [data-testid="entry-bookmark"][aria-pressed="false"]`)
      .first()
      .waitFor();
    suite.current.assertNoErrors();
  });

  it('bookmarks a tool call and its result, and writes and edits notes there and on the Bookmarks page', async () => {
    const page = await suite.open(`/app/sessions/${POMODORO}`);
    // A run of tool calls is one line; opened, each call and each result has its bookmark button.
    const run = page.getByTestId('tool-run').first();
    await run.waitFor();
    await run.locator('button[aria-expanded]').first().click();
    const call = run.getByTestId('tool-call').first();
    await call.waitFor();
    const callIndex = Number(await call.getAttribute('data-entry'));
    await call.getByTestId('entry-bookmark').first().click();
    await call.locator('[data-testid="entry-bookmark"][aria-pressed="true"]').first().waitFor();
    // The button sits beside the call's line: bookmarking did not open the call.
    expect(await call.locator('button[aria-expanded]').first().getAttribute('aria-expanded')).toBe('false');
    expect(await bookmarks()).toEqual([
      expect.objectContaining({ file: 'transcript.jsonl', index: callIndex }),
    ]);

    // Its note, written on the entry.
    await call.getByTestId('bookmark-note-edit').first().click();
    await page.getByTestId('bookmark-note-input').fill('the first tool call');
    await screenshot(page, 'bookmarks-note-on-entry');
    await page.getByTestId('bookmark-note-save').click();
    await page.getByTestId('bookmark-note-input').waitFor({ state: 'detached' });
    expect(await bookmarks()).toEqual([
      expect.objectContaining({ index: callIndex, note: 'the first tool call' }),
    ]);

    // The call's result is an entry of its own, bookmarked from its line.
    await call.locator('button[aria-expanded]').first().click();
    const result = call.getByTestId('tool-result');
    await result.waitFor();
    const resultIndex = Number(await result.getAttribute('data-entry'));
    await result.getByTestId('entry-bookmark').click();
    await result.locator('[data-testid="entry-bookmark"][aria-pressed="true"]').waitFor();
    expect((await bookmarks()).map((b: { index: number }) => b.index)).toEqual([callIndex, resultIndex]);

    // On the Bookmarks page: the note shows, and is edited there.
    await page.goto(`${suite.server.url}/app/bookmarks`);
    const row = page.locator(`[data-testid="bookmark-row"][data-entry="${callIndex}"]`);
    await row.waitFor();
    expect(await row.getByTestId('bookmark-note').innerText()).toBe('the first tool call');
    await row.getByTestId('bookmark-note-edit').click();
    const input = page.getByTestId('bookmark-note-input');
    expect(await input.inputValue()).toBe('the first tool call');
    await input.fill('edited on the bookmarks page');
    await page.getByTestId('bookmark-note-save').click();
    await expect
      .poll(() => row.getByTestId('bookmark-note').innerText())
      .toBe('edited on the bookmarks page');
    await screenshot(page, 'bookmarks-page-notes');
    expect((await bookmarks()).find((b: { index: number }) => b.index === callIndex).note).toBe(
      'edited on the bookmarks page',
    );

    // Full-text search finds the bookmark's note, and its hit opens the entry.
    await page.goto(
      `${suite.server.url}/app/search?q=${encodeURIComponent('"edited on the bookmarks page"')}`,
    );
    const hit = page.locator('[data-testid="search-hit"][data-kind="bookmark"]');
    await hit.waitFor();
    expect(await hit.innerText()).toContain(`bookmark note on #${callIndex}`);
    await hit.click();
    await page.waitForURL((u) => u.pathname === `/app/sessions/${POMODORO}`);
    expect(new URL(page.url()).searchParams.get('entry')).toBe(String(callIndex));
    suite.current.assertNoErrors();
  });
});
