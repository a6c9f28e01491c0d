/**
 * Who speaks in the conversation reader, in a real browser (Debian's Chromium through
 * playwright-core) against a real `transcripts serve` loaded with the shared corpus: a user line is
 * shown as You only when the You turns (`GET /api/sessions/{id}/turns`) count it, with the turn's
 * text (a prompting slash command as `/init`); Claude Code's own lines on the person's side — a
 * command caveat, a local command and its output, an interruption marker — are labelled notices.
 * The You toggle lists exactly those turns. Any console error fails a test.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getJson, type TestServer } from '../support/api-server.js';
import { browserSuite, corpusServer, hasChromium, screenshot, skipReason } from './harness.js';
import { HISTORY_EXPORT } from '../support/corpus-sessions.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const requestAnimationFrame: (callback: () => void) => number;
/* eslint-enable @typescript-eslint/no-explicit-any */

const EDGE = 'edge_cases'; // #5 command caveat, #6 <command-name>, #7 <local-command-stdout>
const INTERRUPTED = '37f83ec9-f2ea-42a9-925e-0d5c105cb6e8'; // #72, #192 "[Request interrupted by user for tool use]"
const INIT = '1af7fc5e-8455-4414-9ccd-011d40f70b2a'; // opens with the /init slash command
const MODERN = HISTORY_EXPORT; // 2.1.x: <bash-input>, /model, /context, /exit, <task-notification>

if (!hasChromium) console.log(skipReason);

interface Row {
  /** Position in the virtualised list. */
  i: number;
  you?: { entry: number; text: string };
  notice?: { entry: number; label: string };
  turn?: number;
}

describe.skipIf(!hasChromium)('who speaks in the conversation reader, in Chromium', () => {
  let server: TestServer;
  const suite = browserSuite(async (staticDir) => {
    server = await corpusServer(staticDir);
    return server;
  });
  const { open } = suite;

  /** The person's turns as the API counts them. */
  async function userTurns(id: string): Promise<Array<{ entry: number; text: string }>> {
    const r = await getJson(server, `/api/sessions/${id}/turns?role=user&limit=1000`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(r.body.turns.length);
    return r.body.turns.map((t: { index: number; text: string }) => ({ entry: t.index, text: t.text }));
  }

  /**
   * The You rows are the person's turns: the same entries, each showing its turn's text. The text
   * is rendered as Markdown (syntax and link targets are not shown), so what is shown must be the
   * turn's words in order, leaving out no more than the Markdown takes.
   */
  function expectTurns(
    you: Array<{ entry: number; text: string }>,
    turns: Array<{ entry: number; text: string }>,
  ) {
    expect(you.map((y) => y.entry)).toEqual(turns.map((t) => t.entry));
    const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    you.forEach((y, i) => {
      const shown = words(y.text);
      const source = words(turns[i]!.text);
      let at = 0;
      for (const w of shown) {
        while (at < source.length && source[at] !== w) at++;
        expect(at, `entry ${y.entry}: "${w}" not in the turn's text, in order`).toBeLessThan(source.length);
        at++;
      }
      expect(shown.length, `entry ${y.entry} shows too little of its turn`).toBeGreaterThanOrEqual(
        Math.floor(source.length * 0.8),
      );
    });
  }

  /** Every row of a virtualised list, scrolling the window from top to bottom to render them all. */
  async function allRows(page: Page, listTestId: string): Promise<Row[]> {
    const seen = new Map<number, Row>();
    await page.evaluate(() => window.scrollTo(0, 0));
    for (let step = 0; step < 2000; step++) {
      await page.evaluate(
        () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
      );
      const { rows, atEnd } = await page.evaluate((testId: string) => {
        const list = document.querySelector(`[data-testid="${testId}"]`);
        const rows = [...list.querySelectorAll(':scope > [data-index]')].map((el: typeof list) => {
          const row: Row = { i: Number(el.getAttribute('data-index')) };
          const you = el.querySelector('[data-testid="msg-user"]');
          if (you)
            row.you = {
              entry: Number(you.getAttribute('data-entry')),
              text: you.querySelector('[data-testid="msg-text"]')?.textContent ?? '',
            };
          const notice = el.querySelector('[data-testid="notice"]');
          if (notice)
            row.notice = {
              entry: Number(notice.getAttribute('data-entry')),
              label: notice.getAttribute('data-notice'),
            };
          const turn = el.querySelector('[data-testid="turn"]');
          if (turn) row.turn = Number(turn.getAttribute('data-entry'));
          return row;
        });
        const atEnd =
          window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2 &&
          list.getBoundingClientRect().bottom <= window.innerHeight;
        return { rows, atEnd };
      }, listTestId);
      for (const r of rows) seen.set(r.i, r);
      if (atEnd) break;
      await page.evaluate(() => window.scrollBy(0, Math.round(window.innerHeight * 0.6)));
    }
    const out = [...seen.values()].sort((a, b) => a.i - b.i);
    // No row was skipped on the way down.
    expect(out.map((r) => r.i)).toEqual(out.map((_, k) => k));
    return out;
  }

  /** Opens a session's conversation reader with all its entries loaded. */
  async function openReader(id: string): Promise<Page> {
    const page = await open(`/app/sessions/${id}?view=both&reader=conversation`);
    await page.getByTestId('loaded-count').filter({ hasText: /^All / }).waitFor();
    return page;
  }

  it("labels edge_cases' command caveat, local command and its output as notices, not You", async () => {
    const page = await openReader(EDGE);
    const rows = await allRows(page, 'conversation-reader');
    const notices = new Map(rows.flatMap((r) => (r.notice ? [[r.notice.entry, r.notice.label]] : [])));
    expect(notices.get(5)).toBe('command caveat');
    expect(notices.get(6)).toBe('local command');
    expect(notices.get(7)).toBe('command output');
    const you = rows.flatMap((r) => (r.you ? [r.you] : []));
    expect(you.map((y) => y.entry)).not.toContain(5);
    expectTurns(you, await userTurns(EDGE));
    // Still there to read, as notices.
    const caveat = page.locator('[data-testid="notice"][data-entry="5"]');
    await caveat.scrollIntoViewIfNeeded();
    expect(await caveat.textContent()).toContain('Caveat: The messages below were generated by the user');
    await screenshot(page, 'speakers-edge-cases');
    suite.current.assertNoErrors();
  });

  it('shows an interruption marker as a notice, and You exactly where /turns has a user turn', async () => {
    const page = await openReader(INTERRUPTED);
    const rows = await allRows(page, 'conversation-reader');
    const notices = new Map(rows.flatMap((r) => (r.notice ? [[r.notice.entry, r.notice.label]] : [])));
    expect(notices.get(72)).toBe('interrupted');
    expect(notices.get(192)).toBe('interrupted');
    const you = rows.flatMap((r) => (r.you ? [r.you] : []));
    expect(you.map((y) => y.entry)).not.toContain(72);
    expect(you.map((y) => y.entry)).not.toContain(192);
    expectTurns(you, await userTurns(INTERRUPTED));
    // Opening at the marker outlines the notice.
    await page.goto(`${server.url}/app/sessions/${INTERRUPTED}?entry=192`);
    const target = page.locator('[data-target-entry]');
    await target.waitFor();
    expect(await target.getAttribute('data-testid')).toBe('notice');
    expect(await target.textContent()).toContain('[Request interrupted by user for tool use]');
    await screenshot(page, 'speakers-interrupted');
    suite.current.assertNoErrors();
  });

  it('reads a slash command as the command, and 2.x local and shell commands as notices', async () => {
    const init = await openReader(INIT);
    const first = init.getByTestId('msg-user').first();
    expect(await first.getByTestId('msg-text').textContent()).toBe('/init');
    expectTurns(
      (await allRows(init, 'conversation-reader')).flatMap((r) => (r.you ? [r.you] : [])),
      await userTurns(INIT),
    );
    const page = await openReader(MODERN);
    const rows = await allRows(page, 'conversation-reader');
    const labels = new Set(rows.flatMap((r) => (r.notice ? [r.notice.label] : [])));
    for (const label of [
      'local command',
      'command output',
      'shell command',
      'shell output',
      'task notification',
    ])
      expect(labels).toContain(label);
    expectTurns(
      rows.flatMap((r) => (r.you ? [r.you] : [])),
      await userTurns(MODERN),
    );
    suite.current.assertNoErrors();
  });

  it('lists under You exactly the /turns user turns', async () => {
    const page = await open();
    for (const id of [EDGE, INTERRUPTED, MODERN]) {
      const expected = (await userTurns(id)).map((t) => t.entry);
      await page.goto(`${server.url}/app/sessions/${id}?view=you`);
      await page.getByTestId('turns-count').waitFor();
      const turns = (await allRows(page, 'turns-list')).flatMap((r) =>
        r.turn === undefined ? [] : [r.turn],
      );
      expect(turns).toEqual(expected);
    }
    suite.current.assertNoErrors();
  });
});
