import { describe, expect, it } from 'vitest';
import { annotationParams } from './annotation-params.js';
import { sessionListSearchSchema } from './search-params.js';

describe('annotationParams', () => {
  it('turns the URL state into the list API parameters; bad tags fall back to none', () => {
    const search = sessionListSearchSchema.parse({ starred: 'true', tag: 'bug,area/api', hasNote: 'true' });
    expect(annotationParams(search)).toEqual({ starred: 'true', tag: ['bug', 'area/api'], hasNote: 'true' });
    expect(annotationParams(sessionListSearchSchema.parse({ starred: 'yes', tag: 'Bad Tag' }))).toEqual({});
  });
});
