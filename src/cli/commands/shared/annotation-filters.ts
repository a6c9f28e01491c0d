/** `--starred` and `--tag <t>` (repeatable, all must match) of `transcripts sessions`. */
import { tagProblem } from '../../../core/annotation-rules.js';
import type { OptionSpec } from '../../command.js';
import { UsageError } from '../../errors.js';

export const annotationFilterOptions: OptionSpec[] = [
  { flags: '--starred', description: 'only starred sessions', apiParams: ['starred'] },
  {
    flags: '--tag <tag...>',
    description: 'only sessions carrying this tag; repeatable, all must match',
    apiParams: ['tag'],
  },
];

export function parseAnnotationFilters(raw: Record<string, unknown>): { starred: boolean; tags: string[] } {
  const tags = (Array.isArray(raw.tag) ? raw.tag : raw.tag === undefined ? [] : [raw.tag]).map((t) =>
    String(t).trim(),
  );
  for (const t of tags) {
    const problem = tagProblem(t);
    if (problem) throw new UsageError(`--tag: ${problem}`);
  }
  return { starred: raw.starred === true, tags: [...new Set(tags)] };
}
