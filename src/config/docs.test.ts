import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_PRICES } from '../core/pricing.js';
import { ENV_VARS } from './env.js';
import { packageRoot } from './paths.js';
import { SETTING_SPECS } from './settings.js';

describe('docs/settings.md', () => {
  const doc = readFileSync(join(packageRoot(), 'docs', 'settings.md'), 'utf8');

  it('documents every setting with its default and range', () => {
    for (const s of SETTING_SPECS) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${s.key}\``));
      expect(row, s.key).toBeDefined();
      expect(row).toContain(`\`${s.default}\``);
      expect(row).toContain(String(s.min));
      expect(row).toContain(String(s.max));
    }
  });

  it('documents every environment variable', () => {
    for (const v of ENV_VARS) expect(doc, v.name).toContain(`| \`${v.name}\``);
  });

  it('lists every built-in price as it is', () => {
    for (const [model, p] of Object.entries(LIST_PRICES))
      expect(doc, model).toContain(
        `| \`${model}\` | ${p.input} | ${p.output} | ${p.cacheWrite} | ${p.cacheRead} |`,
      );
  });
});
