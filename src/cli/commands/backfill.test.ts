import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../ingest/providers/index.js';
import { backfillCommand } from './backfill.js';

describe('backfill', () => {
  it('its help names every agent it reads (written out: the spec does not load ingest/)', () => {
    expect(backfillCommand.description).toContain(`(${PROVIDERS.map((p) => p.name).join(', ')}: `);
  });
});
