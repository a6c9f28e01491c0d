/**
 * Prices from config.json reach the API's costs: the app in process over a copy of the corpus,
 * with the settings `serve` loads from a config.json holding a price for a model nobody here
 * knows the list price of, one of the user's own over a list price, and one bad entry it says it
 * left out.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenUsage } from '../../src/core/documents.js';
import { LIST_PRICES, usageCost, type SessionCost } from '../../src/core/pricing.js';
import { loadSettings } from '../../src/config/settings.js';
import { openTestApp, type TestApp } from '../support/api-app.js';
import { getJson } from '../support/api-server.js';
import { testEngine } from '../support/engines.js';

// The corpus's claude-opus-5 (a model no list price is known for) by a prefix, cache prices left out.
const OPUS5 = { input: 2, output: 10 };
// An Opus 4.1 price of the user's own wins over the list price.
const OPUS41 = { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 };
const BIG = '1b2c0332-e2dc-459f-88b9-1aad6e941e18';

type Session = { id: string; tokensByModel: Record<string, TokenUsage>; cost: SessionCost };

const engine = testEngine('sqlite');
let server: TestApp;
/** The lines `serve` logs for the settings it loaded. */
let settingsLog: string;

describe('session cost with prices from config.json', () => {
  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ct-api-prices-'));
    mkdirSync(path.join(root, 'ct', 'config'), { recursive: true });
    writeFileSync(
      path.join(root, 'ct', 'config', 'config.json'),
      JSON.stringify({
        prices: { 'claude-opus-5*': OPUS5, 'claude-opus-4-1': OPUS41, cheap: { input: 'free' } },
      }),
    );
    // What `serve` does with CT_HOME=<root>/ct: load the settings, log each warning, pass them on.
    const { settings, warnings } = loadSettings(path.join(root, 'ct', 'config', 'config.json'));
    settingsLog = warnings.map((w) => `settings: ${w}`).join('\n');
    server = await openTestApp(engine, { corpus: true, settings });
  });

  afterAll(async () => {
    await server?.close();
    await engine.stop();
  });

  it('says at start which price it left out, and why', () => {
    expect(settingsLog).toMatch(
      /settings: .*config\.json: prices\.cheap: \{"input":"free"\} needs input and output prices/,
    );
  });

  it("prices each model at the user's price, by prefix or over a list price, the rest at list prices", async () => {
    const opus5 = (await getJson(server, '/api/sessions?model=claude-opus-5')).body.sessions as Session[];
    expect(opus5).toHaveLength(1);
    const tokens = opus5[0]!.tokensByModel['claude-opus-5']!;
    const usd = usageCost(tokens, { ...OPUS5, cacheWrite: OPUS5.input, cacheRead: OPUS5.input });
    expect(usd).toBeGreaterThan(0);
    expect(opus5[0]!.cost).toEqual({ usd, complete: true, byModel: { 'claude-opus-5': usd } });

    const big = (await getJson(server, `/api/sessions/${BIG}`)).body as Session;
    const [opus41, sonnet4] = ['claude-opus-4-1-20250805', 'claude-sonnet-4-20250514'];
    expect(big.cost.byModel[opus41]).toBeCloseTo(usageCost(big.tokensByModel[opus41]!, OPUS41), 9);
    expect(big.cost.byModel[sonnet4]).toBeCloseTo(
      usageCost(big.tokensByModel[sonnet4]!, LIST_PRICES['claude-sonnet-4']!),
      9,
    );
    expect(big.cost.usd).toBeCloseTo(big.cost.byModel[opus41]! + big.cost.byModel[sonnet4]!, 9);
  });
});
