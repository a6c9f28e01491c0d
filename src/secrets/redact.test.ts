import { describe, expect, it } from 'vitest';
import { plantedSecrets } from '../../test/support/planted-secrets.js';
import { applyRedactions, describeCounts, redactTexts } from './redact.js';
import { findSecrets } from './scan.js';

describe('findSecrets (secretlint’s recommended preset)', () => {
  it('finds a secret of every rule family', async () => {
    for (const p of plantedSecrets()) {
      const found = await findSecrets(p.text);
      expect(
        found.map((f) => f.rule),
        p.text,
      ).toContain(p.rule);
    }
  });

  it('finds nothing in ordinary text', async () => {
    expect(await findSecrets('const token = getToken(); // the password field is hashed')).toEqual([]);
  });

  it("adds config.json's own patterns", async () => {
    const text = 'use itk_0123456789abcdef to call the internal API';
    expect(await findSecrets(text, [{ rule: 'internal-token', regex: /itk_[0-9a-f]{16}/ }])).toEqual([
      { rule: 'internal-token', start: 4, end: 24 },
    ]);
  });
});

describe('redactTexts', () => {
  it('replaces every planted secret, counts by rule, and keeps the rest', async () => {
    const planted = plantedSecrets();
    const { texts, counts } = await redactTexts(['nothing here', ...planted.map((p) => p.text)]);
    expect(texts[0]).toBe('nothing here');
    for (const [i, p] of planted.entries()) {
      expect(texts[i + 1]).not.toContain(p.secret);
      expect(texts[i + 1]).toContain(`[redacted: ${p.rule}]`);
    }
    const expected: Record<string, number> = {};
    for (const p of planted) expected[p.rule] = (expected[p.rule] ?? 0) + 1;
    expect(counts).toEqual(expected);
    expect(describeCounts({ slack: 1, github: 2 })).toBe('github 2, slack 1');
    expect(describeCounts({})).toBe('none');
  });

  it('merges overlapping findings into one replacement', () => {
    expect(
      applyRedactions('a SECRETXYZ b', [
        { rule: 'one', start: 2, end: 10 },
        { rule: 'two', start: 4, end: 8 },
      ]),
    ).toBe('a [redacted: one]Z b');
  });
});
