/** The schema of a usage tally's state (kept apart from usage.ts so ingest does not load zod). */
import { z } from 'zod';
import { tokenUsageSchema } from './documents.js';
import type { UsageState } from './usage.js';

export const usageStateSchema = z.object({
  totals: tokenUsageSchema,
  /** Recently seen message ids with the usage already counted for each, least recent first. */
  recent: z.array(z.tuple([z.string(), tokenUsageSchema])),
  /** The totals by model (usage.ts says when it is absent). */
  byModel: z.record(z.string(), tokenUsageSchema).optional(),
});

// The hand-written type and the schema must agree, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agrees: Same<z.infer<typeof usageStateSchema>, UsageState> = true;
void agrees;
