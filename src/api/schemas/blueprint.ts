/**
 * The blueprint: what the UI header and a session's data links are projected from. Deliberately
 * not in the OpenAPI description (seed §1.1): clients read it by hand, so its type lives here.
 */
import { z } from 'zod';

export const linkSchema = z.object({ label: z.string(), href: z.string() });

export const blueprintSchema = z.object({
  title: z.string(),
  version: z.string(),
  menus: z.array(z.object({ label: z.string(), items: z.array(linkSchema) })).length(4),
  /** Links for one session; `{id}` in `href` is replaced by the session id. */
  sessionLinks: z.array(linkSchema),
  userSettings: z.object({
    transcriptPageSize: z.number(),
    transcriptAutoLoadMax: z.number(),
    sessionListPageSize: z.number(),
  }),
  system: z.object({
    sessions: z.object({ idleThresholdMs: z.number(), liveWindowMs: z.number() }),
    search: z.object({ enabled: z.boolean() }),
    auth: z.object({ tokenRequired: z.boolean() }),
  }),
});
export type Blueprint = z.infer<typeof blueprintSchema>;
