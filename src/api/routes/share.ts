/**
 * `GET /api/sessions/{id}/share`: one session as a file to send someone — self-contained HTML or
 * Markdown — with its likely secrets redacted unless `redact=false`; `format=summary` says what
 * would be redacted (counts by rule, never the secrets) without the file, for the UI's preview.
 * `transcripts share` and the session page's Share menu both use it, so they make the same files.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { buildShareDoc } from '../share.js';
import type { ApiDeps } from '../deps.js';
import { notFound } from '../http-error.js';
import { createRouter } from '../router.js';
import { errorResponses, sessionIdParam } from '../schemas/common.js';
import { toSession } from '../session-view.js';
import { renderShareHtml } from '../../share/render-html.js';
import { renderShareMarkdown } from '../../share/render-markdown.js';
import type { RedactionCounts } from '../../secrets/redact.js';

const flag = (name: string, description: string) =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

export const shareSummarySchema = z
  .object({
    redactions: z
      .record(z.string(), z.number())
      .openapi({ description: 'likely secrets redacted, by rule (secretlint rule name or config pattern)' }),
    total: z.number(),
  })
  .openapi('ShareSummary');

const shareRoute = createRoute({
  method: 'get',
  path: '/{id}/share',
  summary: 'The session as one file to share: self-contained HTML or Markdown, secrets redacted',
  description:
    'HTML (the default) is one file with inline CSS and script that loads nothing from anywhere; Markdown is ' +
    "the same conversation as text. Likely secrets (secretlint's recommended rules plus config.json's " +
    '`secrets.patterns`) become `[redacted: <rule>]` unless `redact=false`; the `X-Redactions` header counts ' +
    'them by rule (`github=2, slack=1`). `format=summary` answers those counts as JSON, without the file.',
  tags: ['sessions'],
  request: {
    params: z.object({ id: sessionIdParam }),
    query: z
      .object({
        format: z
          .enum(['html', 'markdown', 'summary'], { error: 'must be html, markdown or summary' })
          .optional()
          .openapi({
            param: { name: 'format', in: 'query' },
            description: 'html (default), markdown or summary',
          }),
        role: z
          .enum(['user', 'assistant'], { error: 'must be user or assistant' })
          .optional()
          .openapi({
            param: { name: 'role', in: 'query' },
            description:
              'one side: user (You) or assistant (Claude), as in the turns routes; both when absent',
          }),
        tools: flag('tools', 'include tool calls and their results (default true)'),
        thinking: flag('thinking', "include Claude's thinking (default true)"),
        redact: flag('redact', 'replace likely secrets (default true; false keeps them)'),
      })
      .strict(),
  },
  responses: {
    200: {
      description: 'The file, or the redaction summary',
      content: {
        'text/html': { schema: z.string() },
        'text/markdown': { schema: z.string() },
        'application/json': { schema: shareSummarySchema },
      },
    },
    ...errorResponses(400, 404, 503),
  },
});

/** `github=2, slack=1`: the counts as a structured-field dictionary (RFC 8941). */
export function redactionsHeader(counts: RedactionCounts): string {
  return Object.entries(counts)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([rule, n]) => `${rule.toLowerCase().replace(/[^a-z0-9_.*-]/g, '-')}=${n}`)
    .join(', ');
}

export function shareRoutes(deps: ApiDeps) {
  const app = createRouter();
  const { store, settings } = deps;

  app.openapi(shareRoute, async (c) => {
    const { id } = c.req.valid('param');
    const q = c.req.valid('query');
    const row = await store.views.getSession(id);
    if (!row) throw notFound(`session "${id}" not found`);
    const session = toSession(row, settings, deps.now());
    const doc = await buildShareDoc(
      store,
      session,
      {
        role: q.role === 'user' ? 'you' : q.role === 'assistant' ? 'claude' : 'both',
        tools: q.tools !== 'false',
        thinking: q.thinking !== 'false',
        redact: q.redact !== 'false',
      },
      settings.secretPatterns,
    );
    const total = Object.values(doc.redactions).reduce((a, b) => a + b, 0);
    if (q.format === 'summary') return c.json({ redactions: doc.redactions, total }, 200);
    const markdown = q.format === 'markdown';
    const body = markdown
      ? renderShareMarkdown(doc)
      : renderShareHtml(doc, new Date(deps.now()).toISOString());
    return c.body(body, 200, {
      'content-type': markdown ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8',
      'content-disposition': `attachment; filename="${id}.${markdown ? 'md' : 'html'}"`,
      'x-redactions': redactionsHeader(doc.redactions),
      'access-control-expose-headers': 'x-redactions',
    }) as never;
  });

  return app;
}
