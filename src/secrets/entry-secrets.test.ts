/**
 * The pre-filter never hides what secretlint finds: over every entry of the shared corpus, and a
 * made-up secret of every rule family, the counts of countEntrySecrets (pre-filter, then the
 * scan) equal an independent count — secretlint's own lintSource with the recommended preset over
 * every text, none left out.
 */
import { createReadStream, readdirSync } from 'node:fs';
import path from 'node:path';
import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { projectLines } from '../core/transcript/project-lines.js';
import { splitLines } from '../core/transcript/split-lines.js';
import { corpusDir } from '../../test/support/paths.js';
import { plantedSecretsOfEveryRule } from '../../test/support/planted-secrets.js';
import { countEntrySecrets, countSecrets, entryTexts, needsScan } from './entry-secrets.js';
import { mayHoldSecret } from './prefilter.js';

/** secretlint itself over every text (joined by a line no rule matches across), by short rule name. */
async function independentCount(texts: readonly string[]): Promise<Record<string, number>> {
  const result = await lintSource({
    source: { filePath: 'all.txt', content: texts.join('\n\u0000\n'), contentType: 'text', ext: '.txt' },
    options: {
      config: { rules: [{ id: creator.meta.id, rule: creator, options: {} }] },
      noPhysicFilePath: true,
    },
  });
  const out: Record<string, number> = {};
  for (const m of result.messages) {
    const rule = m.ruleId.replace('@secretlint/secretlint-rule-', '');
    out[rule] = (out[rule] ?? 0) + 1;
  }
  return out;
}

const add = (into: Record<string, number>, counts: Record<string, number> | null) => {
  for (const [k, n] of Object.entries(counts ?? {})) into[k] = (into[k] ?? 0) + n;
};

describe('the secret pre-filter', () => {
  it('passes a secret of every rule family, and the counts equal secretlint’s own', async () => {
    const planted = plantedSecretsOfEveryRule();
    const rules = new Set(planted.map((p) => p.rule));
    // Every rule of the preset that scans text, but gcp (only .json and .p12 files).
    const preset = new Set(
      creator.rules
        .map((r) => r.meta.id.replace('@secretlint/secretlint-rule-', ''))
        .filter((r) => r !== 'gcp' && r !== 'filter-comments'),
    );
    expect([...preset].filter((r) => !rules.has(r))).toEqual([]);
    for (const p of planted) {
      expect(mayHoldSecret(p.text), p.rule).toBe(true);
      expect(await countSecrets([p.text]), p.rule).toEqual(await independentCount([p.text]));
      expect(await countSecrets([p.text]), p.rule).toMatchObject({ [p.rule]: 1 });
    }
  });

  it('lets through ordinary text without a marker', () => {
    expect(mayHoldSecret('const token = getToken(); // see https://example.com/docs')).toBe(false);
    expect(needsScan('ordinary', [{ rule: 'mine', regex: /itk_[0-9a-f]{4}/g }])).toBe(false);
    expect(needsScan('an itk_00ff here', [{ rule: 'mine', regex: /itk_[0-9a-f]{4}/g }])).toBe(true);
  });

  it('counts config.json’s own patterns beside the preset', async () => {
    const patterns = [{ rule: 'internal', regex: /itk_[0-9a-f]{8}/g }];
    expect(await countSecrets(['use itk_0123abcd and itk_89abcdef', 'nothing'], patterns)).toEqual({
      internal: 2,
    });
    expect(await countSecrets(['nothing at all'], patterns)).toBeNull();
  });

  it('misses nothing secretlint finds in any entry of the corpus', async () => {
    const files = readdirSync(corpusDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    expect(files.length).toBeGreaterThan(10);
    const planted = plantedSecretsOfEveryRule().map((p) => p.text);
    const all: string[] = [...planted];
    const ours: Record<string, number> = {};
    add(ours, await countSecrets(planted));
    let texts = planted.length;
    let passed = planted.length;
    for (const f of files) {
      const lines = splitLines(createReadStream(path.join(corpusDir, f)));
      for await (const { entry } of projectLines(lines)) {
        const t = entryTexts(entry);
        all.push(...t);
        texts += t.length;
        passed += t.filter((x) => mayHoldSecret(x)).length;
        add(ours, await countEntrySecrets(entry));
      }
    }
    expect(ours).toEqual(await independentCount(all));
    // Most texts hold no marker, so most are never scanned (the point of the pre-filter).
    console.log(`secret pre-filter: ${passed} of ${texts} texts scanned; found ${JSON.stringify(ours)}`);
    expect(passed).toBeLessThan(texts / 10);
  });
});
