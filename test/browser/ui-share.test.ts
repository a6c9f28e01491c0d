/**
 * The session page's resume, restore and share, in a real browser over the shared corpus: the
 * resume command as core/resume-command.ts makes it, copied by its button; "source file deleted —
 * restore with: transcripts restore <id>" on a session marked deleted (the mark written as the
 * watcher writes it); the Share menu previewing the API's redaction counts, warning when
 * redaction is off, and downloading the very file the API makes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../src/core/resume-command.js';
import { getJson, sendJson } from '../support/api-server.js';
import { browserSuite, corpusServer, hasChromium, skipReason } from './harness.js';

// page.evaluate() bodies run in the browser; the root tsconfig (Node code) has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const navigator: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** cchistory's session: a cwd with an underscore, and a subagent file. */
const ID = 'cc1df109-4282-4321-8248-8bbcd471da78';
const SLOW = { timeout: 10_000 };

if (!hasChromium) console.log(skipReason);

describe.skipIf(!hasChromium)('resume, restore and share on the session page, in Chromium', () => {
  const suite = browserSuite((staticDir) => corpusServer(staticDir), undefined, 'development');

  it('gives the resume command, and copies it', async () => {
    const s = (await getJson(suite.server, `/api/sessions/${ID}`)).body;
    const page = await suite.open(`/app/sessions/${ID}`);
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url });
    const command = page.getByTestId('resume-command');
    await expect.poll(() => command.textContent(), SLOW).toBe(resumeCommand(s));
    await page.getByTestId('resume-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), SLOW).toBe(resumeCommand(s));
    expect(await page.getByTestId('restore-hint').count()).toBe(0);
    suite.current.assertNoErrors();
  });

  it('says how to restore a session whose source file was deleted', async () => {
    const mark = {
      v: 1,
      detectedAt: '2026-01-01T00:00:00.000Z',
      files: [{ path: `/gone/${ID}.jsonl`, objectName: 'transcript.jsonl' }],
    };
    const r = await sendJson(suite.server, 'POST', '/api/ingest/docs', {
      docs: [],
      locals: [{ id: `_local/live:deleted:${ID}`, value: mark }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const page = await suite.open(`/app/sessions/${ID}`);
    await expect
      .poll(() => page.getByTestId('restore-hint').textContent(), SLOW)
      .toBe('source file deleted — restore with:');
    expect(await page.getByTestId('restore-command').textContent()).toBe(`transcripts restore ${ID}`);
    suite.current.assertNoErrors();
  });

  it('previews the redactions and downloads the file the API makes', async () => {
    const summary = (await getJson(suite.server, `/api/sessions/${ID}/share?format=summary`)).body;
    const page = await suite.open(`/app/sessions/${ID}`);
    await page.getByTestId('share-button').click();
    const preview = page.getByTestId('share-preview');
    await expect
      .poll(() => preview.textContent(), SLOW)
      .toBe(
        summary.total === 0
          ? 'No likely secrets found.'
          : expect.stringContaining(`${summary.total} likely secret`),
      );

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('share-markdown').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${ID}.md`);
    const saved = readFileSync((await download.path())!, 'utf8');
    const api = await (await fetch(`${suite.server.url}/api/sessions/${ID}/share?format=markdown`)).text();
    expect(saved).toBe(api);

    await page.getByTestId('share-redact').click();
    await expect.poll(() => page.getByTestId('share-no-redact').count(), SLOW).toBe(1);
    suite.current.assertNoErrors();
  });
});
