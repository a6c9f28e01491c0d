/**
 * j/k through the lists, in a real browser over the corpus: the session list (a window list, rows
 * rendered only near the viewport), search hits and the Turns page's turns. Each step gives the
 * next or previous item's link the focus, on screen below the header, so Enter opens it; j starts
 * from the first item on screen; keys typed into a field stay text.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getJson, type TestServer } from '../support/api-server.js';
import { browserSuite, corpusServer, hasChromium, skipReason, urlParams } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

if (!hasChromium) console.log(skipReason);

/** What holds the focus: the list item around it (else the nearest element with a test id), its session and entry, and whether it is on screen below the header. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const item =
      el?.closest('[data-testid="session-row"], [data-testid="search-hit"], [data-testid="turn-row"]') ??
      el?.closest('[data-testid]');
    const r = el?.getBoundingClientRect();
    const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    return {
      testId: item?.getAttribute('data-testid') ?? null,
      sessionId: item?.getAttribute('data-session-id') ?? null,
      entry: item?.getAttribute('data-entry') ?? null,
      onScreen: r ? r.top >= header && r.bottom <= window.innerHeight : false,
      visible: el ? el.matches(':focus-visible') : false,
    };
  });
}

describe.skipIf(!hasChromium)('j/k through the lists, in Chromium', () => {
  let server: TestServer;
  const suite = browserSuite(async (staticDir) => (server = await corpusServer(staticDir)));

  it('steps through the whole session list, each row focused on screen, and Enter opens the one reached', async () => {
    const { body } = await getJson(server, '/api/sessions?limit=1000');
    const ids: string[] = body.sessions.map((s: { id: string }) => s.id);
    expect(ids.length).toBeGreaterThan(20); // more rows than one screen shows
    const page = await suite.open('/app/');
    await page.getByTestId('session-row').first().waitFor();

    await page.keyboard.press('j');
    expect(await focused(page)).toMatchObject({ testId: 'session-row', sessionId: ids[0], onScreen: true });
    expect((await focused(page)).visible).toBe(true); // the focus ring shows where you are
    await page.keyboard.press('j');
    expect(await focused(page)).toMatchObject({ sessionId: ids[1], onScreen: true });
    await page.keyboard.press('k');
    expect(await focused(page)).toMatchObject({ sessionId: ids[0], onScreen: true });
    await page.keyboard.press('k'); // the first stays the first
    expect(await focused(page)).toMatchObject({ sessionId: ids[0] });

    // Down to the last row, past what the window list rendered at first: every step lands on screen.
    for (let i = 1; i < ids.length; i++) {
      await page.keyboard.press('j');
      await expect.poll(() => focused(page)).toMatchObject({ sessionId: ids[i], onScreen: true });
    }
    await page.keyboard.press('j'); // the last stays the last
    expect(await focused(page)).toMatchObject({ sessionId: ids.at(-1) });

    // Scrolled back to the top by the wheel: j starts from the first row on screen, not the last focused.
    await page.mouse.move(640, 450);
    await page.mouse.wheel(0, -1_000_000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.keyboard.press('j');
    expect(await focused(page)).toMatchObject({ sessionId: ids[0], onScreen: true });
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/app/sessions/${ids[1]}`));
    await page.getByTestId('session-page').waitFor();
    suite.current.assertNoErrors();
  });

  it('steps through search hits and opens one at its entry', async () => {
    const { body } = await getJson(server, '/api/search?q=file&limit=20');
    expect(body.hits.length).toBeGreaterThan(3);
    const page = await suite.open('/app/search?q=file');
    await page.getByTestId('search-hit').first().waitFor();
    // The search field keeps what is typed into it.
    await page.getByTestId('search-input').focus();
    await page.keyboard.press('j');
    expect(await page.getByTestId('search-input').inputValue()).toBe('filej');
    expect((await focused(page)).testId).not.toBe('search-hit');
    await page.getByTestId('search-input').fill('file');
    await page.getByTestId('search-input').blur();

    for (let i = 0; i < 3; i++) await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await focused(page)).toMatchObject({ testId: 'search-hit', onScreen: true });
    const href = await page.evaluate(() => document.activeElement.getAttribute('href'));
    const second = body.hits[1] as { sessionId: string; index: number };
    expect(href).toContain(`/app/sessions/${second.sessionId}?`);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/app/sessions/${second.sessionId}`));
    expect(urlParams(page).get('entry')).toBe(String(second.index));
    suite.current.assertNoErrors();
  });

  it('steps through the turns on the Turns page and opens one at its entry', async () => {
    const { body } = await getJson(server, '/api/turns?role=user&limit=50');
    const page = await suite.open('/app/turns');
    await page.getByTestId('turn-row').first().waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const at = await focused(page);
    const second = body.turns[1] as { sessionId: string; index: number };
    expect(at).toMatchObject({
      testId: 'turn-row',
      sessionId: second.sessionId,
      entry: String(second.index),
    });
    // The turn holding the focus is tinted whole, not only its small link.
    const tinted = await page.evaluate(
      () =>
        window.getComputedStyle(document.activeElement.closest('[data-testid="turn-row"]')).backgroundColor,
    );
    expect(tinted).not.toBe('rgba(0, 0, 0, 0)');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/app/sessions/${second.sessionId}`));
    expect(urlParams(page).get('entry')).toBe(String(second.index));
    suite.current.assertNoErrors();
  });
});
