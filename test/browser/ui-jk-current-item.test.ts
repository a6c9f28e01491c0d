/**
 * The web UI's answers to the third QA sweep, in a real browser (Debian's Chromium through
 * playwright-core) against a real `transcripts serve` loaded with the shared corpus: the j/k
 * current item in every list of a session page and never carried to another session, and the
 * smaller points found by reading the corpus's transcripts in the UI.
 * Any console error fails a test (React's development build, so its warnings too); no test
 * asserts on timing.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/api-server.js';
import { browserSuite, corpusServer, hasChromium, screenshot, skipReason, urlParams } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const getComputedStyle: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18'; // 812 entries, 7 interruptions
const LOG = '37f83ec9-f2ea-42a9-925e-0d5c105cb6e8'; // 346 entries
/** claude-history's 2.1.29 session: its Task call (entry 221) ran subagents/agent-aae161c.jsonl. */
const MODERN = '967e501d-aa48-4eab-a21f-b17058bd78f0';

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('web UI after the third QA sweep, in Chromium', () => {
  let server: TestServer;
  const suite = browserSuite(
    async (staticDir) => {
      server = await corpusServer(staticDir, {
        userSettings: { transcriptPageSize: 100, transcriptAutoLoadMax: 300 },
      });
      return server;
    },
    undefined,
    // React's development build: the QA suites also fail on its warnings.
    'development',
  );
  const { open } = suite;

  async function stickyBottom(page: Page): Promise<number> {
    return page.evaluate(() =>
      Math.round(document.querySelector('[data-testid="transcript-toolbar"]').getBoundingClientRect().bottom),
    );
  }

  /** Takes the focus off any field, so the page's keys reach it. */
  async function blur(page: Page): Promise<void> {
    await page.evaluate(() => document.activeElement?.blur());
  }

  it('j/k step through the You and Claude turns as through the readers', async () => {
    const page = await open(`/app/sessions/${BIG}`);
    await page.locator('[data-window-list] > [data-index="5"]').waitFor();
    await blur(page);
    await page.keyboard.press('2');
    const list = page.getByTestId('turns-list');
    await list.locator('[data-index="3"]').waitFor();
    for (const key of ['j', 'j', 'j']) await page.keyboard.press(key);
    const current = list.locator(':scope > [data-current]');
    await expect.poll(() => current.getAttribute('data-index')).toBe('2');
    expect(await page.locator('[aria-current="true"]').count()).toBe(1);
    await expect.poll(async () => (await current.boundingBox())!.y >= (await stickyBottom(page))).toBe(true);
    await page.keyboard.press('k');
    await expect.poll(() => current.getAttribute('data-index')).toBe('1');
    await screenshot(page, 'qa3-turns-jk');
    // The Claude side starts without a current turn.
    await page.keyboard.press('3');
    await list.locator('[data-index="3"]').waitFor();
    expect(await page.locator('[data-current]').count()).toBe(0);
    suite.current.assertNoErrors();
  });

  it('does not carry the j/k current item to the next session opened', async () => {
    const page = await open(`/app/sessions/${BIG}`);
    await page.locator('[data-window-list] > [data-index="5"]').waitFor();
    await blur(page);
    for (const key of ['j', 'j', 'j']) await page.keyboard.press(key);
    await page.locator('[data-window-list] > [data-current]').waitFor();
    // Another session, without a reload (the omnibox jumps to an id prefix).
    await page.keyboard.press('/');
    await page.keyboard.type(LOG.slice(0, 8));
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/sessions/${LOG}`));
    await page
      .getByTestId('session-heading')
      .filter({ hasText: /git diff/ })
      .waitFor();
    await page.locator('[data-window-list] > [data-index="5"]').waitFor();
    expect(await page.locator('[data-current]').count()).toBe(0);
    // j there starts from the first item in view.
    await blur(page);
    await page.keyboard.press('j');
    await expect
      .poll(() => page.locator('[data-window-list] > [data-current]').getAttribute('data-index'))
      .toBe('0');
    suite.current.assertNoErrors();
  });

  it('keeps the terms highlighted when a turn or a Task call links into the transcript', async () => {
    const page = await open(`/app/sessions/${BIG}?view=you&q=destroy`);
    const turn = page.locator('[data-testid="turn"][data-entry="132"]');
    await turn.locator('mark').filter({ hasText: 'destroy' }).waitFor();
    await turn.getByRole('link', { name: '#132 in the transcript' }).click();
    await expect.poll(() => urlParams(page).get('entry')).toBe('132');
    expect(urlParams(page).get('q')).toBe('destroy');
    expect(urlParams(page).get('view')).toBe('both');
    await page.locator('[data-target-entry] mark').filter({ hasText: 'destroy' }).first().waitFor();
    await page.getByTestId('highlight-chip').waitFor();
    // A Task call's link to its subagent's file: the terms go along, the main file's entry does not.
    await page.goto(`${server.url}/app/sessions/${MODERN}?entry=221&q=lint`);
    await page.getByTestId('subagent-link').click();
    await expect.poll(() => urlParams(page).get('file')).toBe('subagents/agent-aae161c.jsonl');
    expect(urlParams(page).get('q')).toBe('lint');
    expect(urlParams(page).has('entry')).toBe(false);
    await page.getByTestId('highlight-chip').waitFor();
    await page.getByTestId('conversation-reader').locator('mark').first().waitFor();
    suite.current.assertNoErrors();
  });

  it('counts one entry as one entry: subagent work, its thread and what is loaded', async () => {
    // small.jsonl (jazzyalex/agent-sessions) opens with a lone sidechain line no call started.
    const page = await open('/app/sessions/small');
    const loose = page.getByRole('button', { name: /^▸ subagent work not tied to a call/ }).first();
    expect(await loose.textContent()).toBe('▸ subagent work not tied to a call (1 entry)');
    await loose.click();
    await page.getByTestId('subagent-thread').getByText('subagent work (1 entry)').waitFor();
    // a76fc974: one prompt that never got an answer.
    await page.goto(`${server.url}/app/sessions/a76fc974-3091-4485-9127-e667272dc322`);
    expect(await page.getByTestId('loaded-count').textContent()).toBe('All 1 entry loaded');
    suite.current.assertNoErrors();
  });

  it('opens a calendar day in its own month, whatever month the URL names or leaves out', async () => {
    // 2025-07-14: claude-code-log's 37f83ec9 and nested-timers' f0b4ca22.
    const page = await open();
    for (const at of ['/app/calendar?day=2025-07-14', '/app/calendar?month=2025-09&day=2025-07-14']) {
      await page.goto(`${server.url}${at}`);
      await page.getByTestId('calendar-month').filter({ hasText: 'July 2025' }).waitFor();
      const day = page.getByTestId('day-sessions');
      await day.getByTestId('session-row').nth(1).waitFor();
      const ids = await day
        .getByTestId('session-row')
        .evaluateAll((els) => els.map((e) => e.dataset.sessionId));
      expect(ids.sort()).toEqual([LOG, 'f0b4ca22-f8e4-4c07-a952-8302b638e125']);
      expect(await day.getByText('No session was active on this day.').count()).toBe(0);
    }
    suite.current.assertNoErrors();
  });

  it('shows an error notice its error once, in red where the text holds it', async () => {
    // small.jsonl entry 57: an api_error whose text is `level: authentication_error`.
    const page = await open('/app/sessions/small?entry=57');
    const notice = page.locator('[data-testid="notice"][data-entry="57"]');
    await notice.waitFor();
    const text = (await notice.textContent())!;
    expect(text.split('authentication_error').length - 1).toBe(1);
    expect(text).toContain('[trimmed for fixture]: authentication_error');
    expect(await notice.getByTestId('notice-error').textContent()).toBe('authentication_error');
    suite.current.assertNoErrors();
  });

  /**
   * What the target entry's outline covers or loses: each piece of text inside the target that
   * reaches into the outline's band (it is drawn over the text) and each side of the outline that
   * an ancestor's overflow or the window cuts off.
   */
  async function outlineProblems(page: Page): Promise<string[]> {
    return page.evaluate(() => {
      const t = document.querySelector('[data-target-entry]');
      const cs = getComputedStyle(t);
      const width = parseFloat(cs.outlineWidth) || 0;
      const offset = parseFloat(cs.outlineOffset) || 0;
      const r = t.getBoundingClientRect();
      const grow = (by: number) => ({
        left: r.left - by,
        right: r.right + by,
        top: r.top - by,
        bottom: r.bottom + by,
      });
      const inner = grow(offset);
      const outer = grow(offset + width);
      const problems: string[] = [];
      const walker = document.createTreeWalker(t, 4 /* NodeFilter.SHOW_TEXT */);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent.trim()) continue;
        // What shows of the text: a row that ends in an ellipsis clips the rest.
        let left = -Infinity;
        let right = Infinity;
        for (let a = n.parentElement; a && a !== t; a = a.parentElement) {
          if (getComputedStyle(a).overflowX === 'visible') continue;
          const box = a.getBoundingClientRect();
          left = Math.max(left, box.left);
          right = Math.min(right, box.right);
        }
        // Word by word: white space that pre-wrap lets hang past the edge is not drawn.
        const range = document.createRange();
        const rects = [...n.textContent.matchAll(/\S+/g)].flatMap((m) => {
          range.setStart(n, m.index);
          range.setEnd(n, m.index + m[0].length);
          return [...range.getClientRects()];
        });
        const off = rects
          .map((rect) => ({ left: Math.max(rect.left, left), right: Math.min(rect.right, right) }))
          .find((b) => b.right > b.left && (b.left < inner.left - 0.5 || b.right > inner.right + 0.5));
        if (off)
          problems.push(
            `"${n.textContent.slice(0, 20)}" under the outline (${off.left}–${off.right} in ${inner.left}–${inner.right})`,
          );
      }
      const vw = document.documentElement.clientWidth;
      if (outer.left < 0 || outer.right > vw)
        problems.push(`outline outside the window (${outer.left}–${outer.right} of ${vw})`);
      for (let a = t.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        if (a === document.body || a === document.documentElement) continue;
        const box = a.getBoundingClientRect();
        if (
          outer.left < box.left ||
          outer.right > box.right ||
          outer.top < box.top ||
          outer.bottom > box.bottom
        )
          problems.push(`outline cut by ${a.tagName}.${a.className} (overflow ${s.overflow})`);
      }
      return problems;
    });
  }

  it('draws the target outline around the entry, not over its text, on a desktop and a phone', async () => {
    const targets = [
      // A tool result: its "result" label at the left edge.
      { at: `/app/sessions/${BIG}?entry=4`, what: '[data-testid="tool-result"]' },
      // A message and a notice: the #N link at the right.
      { at: `/app/sessions/${BIG}?entry=2`, what: '[data-testid="msg-assistant"]' },
      { at: '/app/sessions/small?entry=57', what: '[data-testid="notice"]' },
      { at: `/app/sessions/${BIG}?entry=4&reader=raw`, what: '[data-testid="target-item"]' },
    ];
    const page = await open();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const { at, what } of targets) {
        await page.goto(`${server.url}${at}`);
        await page.locator(`${what}[data-target-entry]`).waitFor();
        expect(await outlineProblems(page), `${at} at ${width}px`).toEqual([]);
      }
      await screenshot(page, `qa3-target-outline-${width}`);
    }
    suite.current.assertNoErrors();
  });

  it('opens a search offset inside a page at that page, the URL, the hits and the pager agreeing', async () => {
    const page = await open();
    const pager = page.getByTestId('search-pagination');
    const firstHit = () => page.getByTestId('search-hit').first().getAttribute('href');
    const starts: Record<string, string | null> = {};
    for (const offset of ['', '20']) {
      await page.goto(`${server.url}/app/search?q=error${offset ? `&offset=${offset}` : ''}`);
      await pager.waitFor();
      starts[offset] = await firstHit();
    }
    expect(starts['']).not.toBe(starts['20']);
    for (const [asked, start, current] of [
      ['7', '', '1'],
      ['27', '20', '2'],
    ] as const) {
      await page.goto(`${server.url}/app/search?q=error&offset=${asked}`);
      await pager.waitFor();
      await expect.poll(() => urlParams(page).get('offset') ?? '').toBe(start);
      expect(await pager.locator('[aria-current="page"]').textContent()).toBe(current);
      expect(await firstHit()).toBe(starts[start]);
    }
    suite.current.assertNoErrors();
  });

  it("labels Claude Code's meta lines by what they are, their text shown", async () => {
    // basic_session.jsonl (ca42c9a8) entry 15: the caveat Claude Code marks isMeta before a local command.
    const page = await open('/app/sessions/ca42c9a8-5322-4660-95ff-66f7474b08d6?entry=15');
    const caveat = page.locator('[data-testid="notice"][data-entry="15"]');
    await caveat.waitFor();
    expect(await caveat.getAttribute('data-notice')).toBe('command caveat');
    expect(await caveat.textContent()).toContain(
      'Caveat: The messages below were generated by the user while running local commands',
    );
    expect(
      await page
        .getByTestId('meta')
        .filter({ hasText: /bookkeeping lines?: .*\buser\b/ })
        .count(),
    ).toBe(0);
    // 1af7fc5e: /init, then the prompt it sent Claude (isMeta).
    await page.goto(`${server.url}/app/sessions/1af7fc5e-8455-4414-9ccd-011d40f70b2a`);
    const prompt = page.locator('[data-testid="notice"][data-entry="1"]');
    await prompt.waitFor();
    expect(await prompt.getAttribute('data-notice')).toBe('prompt of /init');
    expect(await prompt.textContent()).toContain('Please analyze this codebase and create a CLAUDE.md file');
    await screenshot(page, 'qa3-meta-lines');
    suite.current.assertNoErrors();
  });

  it('keeps the raw rows opened in a file with that file, across switching files', async () => {
    // cc1df109: its main transcript starts with a snapshot (other), its subagent file with a prompt.
    const page = await open('/app/sessions/cc1df109-4282-4321-8248-8bbcd471da78?reader=raw');
    const row = (i: number) => page.locator(`[data-testid="raw-row"][data-entry="${i}"]`);
    const show = async (option: RegExp, firstRole: string) => {
      await page.getByTestId('file-select').click();
      await page.getByRole('option', { name: option }).click();
      await expect.poll(() => row(0).locator('.mantine-Badge-root').textContent()).toBe(firstRole);
      await row(5).waitFor();
    };
    const main = /^main transcript/;
    const subagent = /agent-a0a2928875cb36a92/;
    await row(5).waitFor();
    // Both files loaded first.
    await show(subagent, 'user');
    await show(main, 'other');
    await row(2).getByRole('button').first().click();
    await row(2).getByTestId('raw-json').waitFor();
    await show(subagent, 'user');
    expect(await page.getByTestId('raw-json').count()).toBe(0);
    await row(5).getByRole('button').first().click();
    await row(5).getByTestId('raw-json').waitFor();
    await show(main, 'other');
    await row(2).getByTestId('raw-json').waitFor();
    expect(await page.getByTestId('raw-json').count()).toBe(1);
    suite.current.assertNoErrors();
  });

  it('says a session id the API refuses names no session, without a Retry', async () => {
    const page = await open(`/app/sessions/${encodeURIComponent('✓')}`);
    const panel = page.getByTestId('session-not-found');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('No session has the id ✓, which is not a valid session id.');
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await panel.getByRole('link', { name: 'Back to all sessions' }).waitFor();
    // The 400 itself is the browser's console line for the failed request.
    suite.current.assertNoErrors([/Failed to load resource/, /not a valid session id/]);
  });
});
