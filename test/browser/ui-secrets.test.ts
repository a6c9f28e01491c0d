/**
 * Secrets at rest in the web UI, in Chromium: `has:secrets` typed in the omnibox filters the list
 * to the session holding made-up secrets and shows its chip (removing the chip lists every session
 * again); the session page marks each entry holding one with the rules on hover, and the page
 * shows no secret mark where there is none — and never a rule's secret in a title.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startTestServer } from '../support/api-server.js';
import { POMODORO } from '../support/corpus-sessions.js';
import { assistantRecord, transcriptLines, userRecord } from '../support/hand-made-transcript.js';
import { claudeCorpusDir } from '../support/paths.js';
import { plantedSecrets, type PlantedSecret } from '../support/planted-secrets.js';
import { browserSuite, hasChromium, skipReason } from './harness.js';

const ID = '5ec2e75a-0000-4000-8000-0000000000b3';
let tree = '';
let planted: PlantedSecret[] = [];

describe.skipIf(!hasChromium)(hasChromium ? 'secrets in the web UI' : skipReason, () => {
  const suite = browserSuite(
    async (staticDir) => {
      tree = await mkdtemp(path.join(os.tmpdir(), 'ct-ui-secrets-'));
      await mkdir(path.join(tree, 'p'));
      await copyFile(
        path.join(claudeCorpusDir, 'yoavf__ai-sessions/claude-code-pomodoro-timer.jsonl'),
        path.join(tree, 'p', 'claude-code-pomodoro-timer.jsonl'),
      );
      planted = plantedSecrets();
      const records = [
        userRecord('u', 'here are the keys'),
        userRecord('g', planted.find((p) => p.rule === 'github')!.text),
        assistantRecord('a', 'noted'),
        userRecord('s', planted.find((p) => p.rule === 'slack')!.text),
      ];
      await writeFile(
        path.join(tree, 'p', `${ID}.jsonl`),
        `${transcriptLines(records, { sessionId: ID, start: '2025-10-01T00:00:00.000Z', fields: { cwd: '/w' } }).join('\n')}\n`,
      );
      const server = await startTestServer({ args: ['--no-import'], env: { CT_STATIC_DIR: staticDir } });
      const r = await runCli(['backfill', '--dir', tree, '--webapi', server.url], { env: server.env });
      expect(r.code, r.stderr).toBe(0);
      return server;
    },
    () => void rm(tree, { recursive: true, force: true }),
  );

  it('has:secrets filters the list, with its chip', async () => {
    const page = await suite.open('/app/');
    const rows = page.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBe(2);
    const omnibox = page.getByTestId('omnibox');
    await omnibox.click();
    await omnibox.fill('has:secrets');
    await omnibox.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('hasSecrets')).toBe('true');
    await page.getByTestId('chip-hasSecrets').waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.locator(`a[href*="${ID}"]`).count()).toBeGreaterThan(0);
    expect(await page.locator(`a[href*="${POMODORO}"]`).count()).toBe(0);

    await page.getByRole('button', { name: 'Remove filter secrets' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('hasSecrets')).toBeNull();
    suite.current.assertNoErrors();
  });

  it('marks the entries that hold one, naming the rules and never the secret', async () => {
    const page = await suite.open(`/app/sessions/${ID}`);
    const marks = page.getByTestId('secret-mark');
    await expect.poll(() => marks.count()).toBe(2);
    const titles = await marks.evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    expect(titles).toEqual(['Likely secret: github 1', 'Likely secret: slack 1']);
    // Each mark sits on the entry that holds its secret.
    const entries = await marks.evaluateAll((els) =>
      els.map((e) => e.closest('[data-entry]')?.getAttribute('data-entry')),
    );
    expect(entries).toEqual(['1', '3']);
    const html = await page.content();
    for (const p of planted) expect(html.includes(`secret: ${p.secret}`)).toBe(false);

    // A session without secrets has no mark.
    const other = await suite.open(`/app/sessions/${POMODORO}`);
    await other.getByTestId('msg-user').first().waitFor();
    expect(await other.getByTestId('secret-mark').count()).toBe(0);
    suite.current.assertNoErrors();
  });
});
