import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeValidationError } from './router.js';

describe('describeValidationError', () => {
  it('names the parameter and where it came from', () => {
    const q = z.object({ limit: z.number() }).strict().safeParse({ limit: 'x', limt: 1 });
    expect(q.success).toBe(false);
    const msg = describeValidationError('query', q.error!);
    expect(msg).toContain('query parameter limit:');
    expect(msg).toContain('query parameter limt: unknown parameter');
  });

  it('names nested body fields by path', () => {
    const r = z
      .object({ docs: z.array(z.object({ n: z.number() })) })
      .safeParse({ docs: [{ n: 1 }, { n: 'two' }] });
    expect(describeValidationError('json', r.error!)).toMatch(/^body field docs\.1\.n: /);
    const root = z.object({}).safeParse([1]);
    expect(describeValidationError('json', root.error!)).toMatch(/^request body: /);
  });
});
