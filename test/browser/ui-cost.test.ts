/**
 * What a session's tokens cost, in a real browser over the shared corpus: the session page's
 * `cost` row reads what core/display-format.ts's formatCost makes of the API's own `cost` (with
 * each model's share when there are several, and a tooltip saying it is a list-price estimate),
 * a model without a price is named as unpriced, and the list's optional Cost column (hidden by
 * default, not an order) shows `$…` cells and `?` for a session none of whose tokens has a price.
 * Above the list, the totals line reads what `GET /api/totals` answers for the list's filters
 * (count, tokens, dollars), follows a filter picked, opens each model's share, and never holds
 * the list up when the totals fail.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatCost, formatUsd, type CostLike } from '../../src/core/display-format.js';
import {
  formatCount,
  formatCountOf,
  formatTokens,
  formatTotalsCost,
  totalTokens,
  modelLabel,
} from '../../web/src/lib/format.js';
import type { components } from '../../src/client/api-schema.gen.js';
import { getJson } from '../support/api-server.js';
import {
  browserSuite,
  corpusServer,
  hasChromium,
  hasHorizontalOverflow,
  screenshot,
  skipReason,
} from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const getComputedStyle: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const TWO_MODELS = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';
const SONNET4 = 'claude-sonnet-4-20250514';
const OPUS41 = 'claude-opus-4-1-20250805';
const UNPRICED = 'claude-opus-5';

type Totals = components['schemas']['Totals'];
/** Polls that wait on a request (the totals, the list): busy machines take more than a second. */
const SLOW = { timeout: 10_000 };

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('session cost, in Chromium', () => {
  // The development build, so React's warnings are console errors the tests fail on.
  const suite = browserSuite((staticDir) => corpusServer(staticDir), undefined, 'development');

  const apiCost = async (id: string): Promise<CostLike> => {
    const r = await getJson(suite.server, `/api/sessions/${id}`);
    expect(r.status).toBe(200);
    return r.body.cost as CostLike;
  };
  /** The one session of the corpus that used the model without a price. */
  const unpricedSession = async (): Promise<string> => {
    const r = await getJson(suite.server, `/api/sessions?model=${UNPRICED}`);
    expect(r.status).toBe(200);
    expect(r.body.sessions.length).toBeGreaterThan(0);
    return r.body.sessions[0].id as string;
  };
  const rows = (page: Page) => page.getByTestId('session-row');
  const menu = (page: Page) => page.getByTestId('columns-menu');

  it("shows the session's cost as the API gives it, each model's share, and what the figure is", async () => {
    const cost = await apiCost(TWO_MODELS);
    expect(cost.complete).toBe(true);
    expect(Object.keys(cost.byModel).sort()).toEqual([OPUS41, SONNET4].sort());

    const page = await suite.open(`/app/sessions/${TWO_MODELS}`);
    // The summary bar says the cost; the details panel (folded by default) breaks it down.
    await page
      .getByTestId('summary-cost')
      .filter({ hasText: formatCost(cost) })
      .waitFor();
    await page.getByTestId('details-toggle').click();
    const row = page.getByTestId('detail-cost');
    await row.waitFor();
    expect(await row.getByTestId('detail-cost-total').textContent()).toBe(formatCost(cost));
    expect(formatCost(cost)).toMatch(/^\$[\d,]+\.\d\d$/);
    const text = (await row.textContent())!;
    expect(text.startsWith(formatCost(cost))).toBe(true);
    for (const model of [SONNET4, OPUS41]) {
      const usd = cost.byModel[model]!;
      expect(text).toContain(` · ${model} ${formatUsd(usd)}`);
    }
    // Right after the tokens, in the same card.
    const labels = await page
      .getByTestId('detail-tokens')
      .locator('xpath=ancestor::tbody')
      .evaluate((tb) => [...tb.querySelectorAll('tr')].map((tr) => tr.firstElementChild!.textContent));
    expect(labels.indexOf('cost')).toBe(labels.indexOf('tokens') + 1);

    await row.getByTestId('detail-cost-value').hover();
    const tip = page.getByRole('tooltip');
    await tip.waitFor();
    await expect.poll(() => tip.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    const said = (await tip.textContent())!;
    expect(said).toContain('list prices');
    expect(said).toContain('five-minute rate');
    expect(said).toContain('config.json `prices`');
    await screenshot(page, 'cost-session');
    suite.current.assertNoErrors();
  });

  it('names a model without a price as unpriced rather than guessing a figure', async () => {
    const id = await unpricedSession();
    const cost = await apiCost(id);
    expect(cost.usd).toBeNull();
    expect(formatCost(cost)).toBe(`unpriced ${UNPRICED}`);

    const page = await suite.open(`/app/sessions/${id}`);
    // The summary bar says so, and so does the details panel once opened.
    await page
      .getByTestId('summary-cost')
      .filter({ hasText: `unpriced ${UNPRICED}` })
      .waitFor();
    await page.getByTestId('details-toggle').click();
    const total = page.getByTestId('detail-cost-total');
    await total.waitFor();
    expect(await total.textContent()).toBe(`unpriced ${UNPRICED}`);
    expect(await page.getByTestId('detail-tokens').textContent()).not.toMatch(/^0 total/);
    suite.current.assertNoErrors();
  });

  it('shows the Cost column once ticked: $ cells, ? for a price unknown, and no cost order', async () => {
    const id = await unpricedSession();
    const page = await suite.open('/app/');
    await rows(page).first().waitFor();
    // Hidden by default, and not counted as hidden by the person.
    expect(await page.getByTestId('cost').count()).toBe(0);
    expect(await page.getByTestId('columns-button').getAttribute('aria-label')).toBe('Columns');

    // The sort picker offers no cost order.
    await page.getByTestId('sort-by').click();
    const options = await page.getByRole('option').allTextContents();
    expect(options).toContain('Tokens');
    expect(options).not.toContain('Cost');
    await page.keyboard.press('Escape');

    await page.getByTestId('columns-button').click();
    await menu(page).waitFor();
    const box = menu(page).getByRole('checkbox', { name: 'Cost', exact: true });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'hidden' });

    // Every row on screen shows it, right after the tokens, as formatCost's short form.
    await rows(page).first().getByTestId('cost').waitFor();
    const facts = await rows(page).evaluateAll((els) =>
      els.map((r) => [...r.querySelectorAll('[data-fact]')].map((f) => f.getAttribute('data-fact')!)),
    );
    for (const f of facts) expect(f.indexOf('cost')).toBe(f.indexOf('tokens') + 1);
    const cells = await rows(page)
      .getByTestId('cost')
      .evaluateAll((els) => els.map((el) => el.lastElementChild!.textContent!));
    expect(cells.length).toBe(facts.length);
    for (const c of cells) expect(c).toMatch(/^(\$[\d,]+\.\d\d\+?|<\$0\.01\+?|\?)$/);
    expect(cells.some((c) => c.startsWith('$'))).toBe(true);
    // The button does not count the cost, shown now, nor did it while hidden by default.
    expect(await page.getByTestId('columns-button').getAttribute('aria-label')).toBe('Columns');

    // The session whose only model has no price reads `?`, its title the long phrase.
    await page.goto(`${suite.server.url}/app/?model=${UNPRICED}`);
    const row = page.locator(`[data-testid="session-row"][data-session-id="${id}"]`);
    await row.waitFor();
    const cell = row.getByTestId('cost').locator('[title]');
    expect(await cell.textContent()).toBe('?');
    expect(await cell.getAttribute('title')).toBe(`unpriced ${UNPRICED}`);
    await screenshot(page, 'cost-list');
    suite.current.assertNoErrors();
  });

  const apiTotals = async (query = ''): Promise<Totals> => {
    const r = await getJson<Totals>(suite.server, `/api/totals${query}`);
    expect(r.status).toBe(200);
    return r.body;
  };
  /** The line as the totals should make it (the caret that opens the popover aside). */
  const totalsLine = (t: Totals) =>
    `${formatCountOf(t.sessions, 'session')} · ${formatTokens(totalTokens(t.tokens))} tokens · ${formatTotalsCost(t)}`;
  const lineText = async (page: Page) =>
    (await page.getByTestId('list-totals').textContent())!.replace(/ ▾$/, '');
  /** Each row of the popover's table, as its cells read, and as the API's byModel should read. */
  const popoverRows = (page: Page) =>
    page
      .getByTestId('list-totals-by-model')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!)));
  const apiRows = (t: Totals) =>
    t.byModel.map((m) => [
      modelLabel(m.model),
      formatCount(m.sessions),
      formatTokens(totalTokens(m.tokens)),
      m.usd === null ? 'no price' : formatUsd(m.usd),
    ]);

  it("sums what the list's filters select above it, as /api/totals answers, and follows a filter", async () => {
    const all = await apiTotals();
    expect(all.sessions).toBeGreaterThan(1);
    expect(formatTotalsCost(all)).toMatch(/^\$[\d,]+\.\d\d/);
    // The corpus holds the model without a price, so the sum says so.
    expect(all.complete).toBe(false);
    expect(all.byModel.find((m) => m.model === UNPRICED)?.usd).toBeNull();

    const page = await suite.open('/app/');
    await rows(page).first().waitFor();
    await expect.poll(() => lineText(page), SLOW).toBe(totalsLine(all));
    // The count shows once: the line's own count is the list's.
    expect(await page.getByTestId('session-count').textContent()).toBe(
      formatCountOf(all.sessions, 'session'),
    );
    expect((await lineText(page)).match(/sessions?\b/g)).toHaveLength(1);

    // Each model of the answer, with its figure; the unpriced one says so; and what the figure is.
    await page.getByTestId('list-totals').click();
    await page.getByTestId('list-totals-by-model').waitFor();
    expect(await popoverRows(page)).toEqual(apiRows(all));
    const unpricedRow = page.locator(`[data-testid="list-totals-model"][data-model="${UNPRICED}"]`);
    expect(await unpricedRow.locator('td').last().textContent()).toBe('no price');
    const note = (await page.getByRole('dialog').textContent())!;
    expect(note).toContain('list prices');
    expect(note).toContain('config.json `prices`');
    await expect
      .poll(() => page.getByRole('dialog').evaluate((el) => getComputedStyle(el).opacity))
      .toBe('1');
    await screenshot(page, 'totals-by-model');
    await page.keyboard.press('Escape');
    await page.getByTestId('list-totals-by-model').waitFor({ state: 'hidden' });

    // A model picked in the filters: the line becomes that filter's totals (the session count
    // the list's, the tokens and dollars those of the sessions that used the model).
    const opus = await apiTotals(`?model=${OPUS41}`);
    expect(opus.sessions).toBeLessThan(all.sessions);
    await page.getByTestId('filter-model').click();
    await page.getByRole('option', { name: new RegExp(OPUS41) }).click();
    await page.getByTestId('chip-model').waitFor();
    await expect.poll(() => lineText(page), SLOW).toBe(totalsLine(opus));
    await expect.poll(() => page.getByTestId('list-totals').getAttribute('aria-busy'), SLOW).toBeNull();
    await page.getByTestId('list-totals').click();
    await expect.poll(() => popoverRows(page), SLOW).toEqual(apiRows(opus));
    // Every selected session counts whole, which the popover says under a model filter.
    expect(await page.getByRole('dialog').textContent()).toContain('Each session counts whole');
    await page.keyboard.press('Escape');

    // The model without a price alone: no dollars at all, and its row says "no price".
    const unpriced = await apiTotals(`?model=${UNPRICED}`);
    expect(formatTotalsCost(unpriced)).toBe(`unpriced ${UNPRICED}`);
    await page.goto(`${suite.server.url}/app/?model=${UNPRICED}`);
    await rows(page).first().waitFor();
    await expect.poll(() => lineText(page), SLOW).toBe(totalsLine(unpriced));
    await page.getByTestId('list-totals').click();
    await expect.poll(() => unpricedRow.locator('td').last().textContent(), SLOW).toBe('no price');
    suite.current.assertNoErrors();
  });

  it('keeps the list and its count when the totals fail, and fits a narrow screen', async () => {
    const all = await apiTotals();
    const page = await suite.open(undefined, { width: 375, height: 740 });
    // The server answers the list; the totals request alone fails (its retry too).
    let refused = 0;
    await page.route('**/api/totals**', (route) => {
      refused++;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":{"code":"unavailable","message":"down"}}',
      });
    });
    await page.goto(`${suite.server.url}/app/`);
    await rows(page).first().waitFor();
    await expect.poll(() => refused, SLOW).toBe(2);
    await page.waitForTimeout(200);
    expect(await lineText(page)).toBe(formatCountOf(all.sessions, 'session'));
    expect(await page.getByTestId('list-totals-usage').count()).toBe(0);
    expect(await rows(page).count()).toBeGreaterThan(0);
    suite.current.assertNoErrors([/Failed to load resource/]);

    // With the totals back, on a phone: the line wraps rather than overflow, and so does its popover.
    await page.unroute('**/api/totals**');
    await page.reload();
    await expect.poll(() => lineText(page), SLOW).toBe(totalsLine(all));
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await page.getByTestId('list-totals').click();
    await page.getByTestId('list-totals-by-model').waitFor();
    expect(await hasHorizontalOverflow(page)).toBe(false);
    const box = (await page.getByRole('dialog').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await expect
      .poll(() => page.getByRole('dialog').evaluate((el) => getComputedStyle(el).opacity))
      .toBe('1');
    await screenshot(page, 'totals-mobile');
    suite.current.assertNoErrors([/Failed to load resource/]);
  });
});
