/**
 * `GET /api/blueprint`: what the UI header and a session's data links are projected from. A plain
 * `app.get` on purpose — the seed keeps it out of the machine-readable description.
 */
import { Hono } from 'hono';
import type { ApiDeps } from '../deps.js';
import type { Blueprint } from '../schemas/blueprint.js';

export const BLUEPRINT_TITLE = 'transcripts';

export function buildBlueprint(deps: ApiDeps, searchEnabled: boolean): Blueprint {
  return {
    title: BLUEPRINT_TITLE,
    version: deps.version,
    menus: [
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
      {
        label: 'Data',
        items: [
          { label: 'Documents (JSON)', href: '/api/store/docs?limit=100' },
          { label: 'Activity (JSON)', href: '/api/activity' },
          { label: 'Export and import', href: '/api/docs#/store' },
        ],
      },
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
    ],
    // A session's data links. The complete ones first: the transcript as recorded, the
    // conversation as Markdown and every stored document of the session (what an export holds).
    // The JSON routes of entries, turns and events are paged (`total`, `offset`, `limit` in the
    // answer), so their links say they give one page rather than pass for an export.
    sessionLinks: [
      { label: 'Session (JSON)', href: '/api/sessions/{id}' },
      { label: 'Raw transcript (JSONL)', href: '/api/store/objects/{id}/transcript.jsonl' },
      { label: 'Markdown', href: '/api/sessions/{id}/markdown' },
      { label: 'All documents (NDJSON)', href: '/api/store/docs.ndjson?session={id}' },
      { label: 'Objects (JSON)', href: '/api/store/objects/{id}/' },
      { label: 'Transcript entries (JSON, first page)', href: '/api/sessions/{id}/transcript' },
      { label: 'Turns (JSON, first page)', href: '/api/sessions/{id}/turns' },
      { label: 'Events (JSON, first page)', href: '/api/sessions/{id}/events' },
    ],
    userSettings: { ...deps.settings.userSettings },
    system: {
      sessions: { ...deps.settings.system.sessions },
      search: { enabled: searchEnabled },
      auth: { tokenRequired: deps.tokenRequired },
    },
  };
}

export function blueprintRoutes(deps: ApiDeps) {
  const app = new Hono();
  app.get('/', async (c) => {
    const materialized = await deps.store.views.materialized().catch((): string[] => []);
    return c.json(buildBlueprint(deps, materialized.includes('full_text')));
  });
  return app;
}
