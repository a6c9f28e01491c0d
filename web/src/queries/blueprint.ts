/**
 * `GET /api/blueprint`: title, build version, the four header menus, a session's data links and
 * the user settings. It is not in the machine-readable description (seed §1.1), so it is read by
 * hand and checked here; a missing or odd field falls back rather than breaking the header.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from '../lib/zod.js';
import { api } from './api.js';

const link = z.object({ label: z.string(), href: z.string() });

export const blueprintSchema = z.object({
  title: z.string().catch('transcripts'),
  version: z.string().catch(''),
  menus: z.array(z.object({ label: z.string(), items: z.array(link).catch([]) })).catch([]),
  sessionLinks: z.array(link).catch([]),
  userSettings: z
    .object({
      transcriptPageSize: z.number().int().min(1).max(1000).catch(100),
      transcriptAutoLoadMax: z.number().int().min(1).catch(2000),
      sessionListPageSize: z.number().int().min(1).max(500).catch(100),
    })
    .catch({ transcriptPageSize: 100, transcriptAutoLoadMax: 2000, sessionListPageSize: 100 }),
  system: z
    .object({
      sessions: z.object({ idleThresholdMs: z.number(), liveWindowMs: z.number() }).partial().catch({}),
      search: z.object({ enabled: z.boolean() }).catch({ enabled: true }),
    })
    .partial()
    .catch({}),
});
export type Blueprint = z.infer<typeof blueprintSchema>;

/**
 * The header's four menus while the blueprint cannot be read: the UI's own pages and the API's
 * self-description, in the blueprint's order (the header holds four menus on every page).
 */
const FALLBACK_MENUS: Blueprint['menus'] = [
  {
    label: 'Sessions',
    items: [
      { label: 'All sessions', href: '/app/' },
      { label: 'Calendar', href: '/app/calendar' },
      { label: 'Turns', href: '/app/turns' },
      { label: 'Bookmarks', href: '/app/bookmarks' },
      { label: 'Search', href: '/app/search' },
    ],
  },
  { label: 'Data', items: [{ label: 'Activity (JSON)', href: '/api/activity' }] },
  {
    label: 'System',
    items: [
      { label: 'Health', href: '/api/health' },
      { label: 'Migrations', href: '/api/migrate/status' },
    ],
  },
  {
    label: 'Help',
    items: [
      { label: 'API reference', href: '/api/docs' },
      { label: 'OpenAPI description', href: '/api/openapi.json' },
    ],
  },
];

export const defaultBlueprint: Blueprint = { ...blueprintSchema.parse({}), menus: FALLBACK_MENUS };

export const blueprintQueryOptions = () =>
  queryOptions({
    queryKey: ['blueprint'],
    queryFn: async ({ signal }) =>
      blueprintSchema.parse(await api.request<unknown>('GET', '/api/blueprint', { signal })),
  });

/** A session's data link with `{id}` filled in. */
export function sessionHref(href: string, id: string): string {
  return href.replace(/\{id\}/g, encodeURIComponent(id));
}
