/**
 * The one way route groups are made: an `OpenAPIHono` whose `defaultHook` turns every zod
 * validation failure into 400 `{error: {code: 'bad_request', message}}`, the message naming the
 * parameter or field (`query parameter limit: …`, `body field docs.2.type: …`).
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod';

const TARGET_WORDS: Record<string, string> = {
  query: 'query parameter',
  param: 'path parameter',
  json: 'body field',
  header: 'header',
  cookie: 'cookie',
  form: 'form field',
};

/**
 * One line naming every failing parameter: `query parameter limit: expected number, received NaN`.
 * `at` is where the validated value sits in the request (`['docs', 2]` for one document of a batch).
 */
export function describeValidationError(
  target: string,
  error: z.ZodError,
  at: readonly PropertyKey[] = [],
  /** How many times a query parameter was given: a repeated one is said to be, whatever zod said. */
  timesGiven?: (name: string) => number,
): string {
  const what = TARGET_WORDS[target] ?? target;
  const lines = error.issues.map((issue) => {
    const path = [...at, ...issue.path].map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys?: string[] }).keys ?? [];
      return keys
        .map(
          (k) =>
            `${what} ${path ? `${path}.` : ''}${k}: unknown ${target === 'json' ? 'field' : 'parameter'}`,
        )
        .join('; ');
    }
    if (!path) return target === 'json' ? `request body: ${issue.message}` : `${what}s: ${issue.message}`;
    const times = timesGiven?.(path) ?? 1;
    if (times > 1) return `${what} ${path}: given ${times} times; give it once`;
    return `${what} ${path}: ${issue.message}`;
  });
  // A parameter given twice fails once for each check; say so once.
  return [...new Set(lines)].join('; ');
}

export function validationErrorResponse(c: Context, target: string, error: z.ZodError): Response {
  const timesGiven = target === 'query' ? (name: string) => c.req.queries(name)?.length ?? 0 : undefined;
  return c.json(
    { error: { code: 'bad_request', message: describeValidationError(target, error, [], timesGiven) } },
    400,
  );
}

/** A route group with the shared validation hook. */
export function createRouter(): OpenAPIHono {
  return new OpenAPIHono({
    defaultHook: (result, c) => {
      if (!result.success) return validationErrorResponse(c, result.target, result.error);
    },
  });
}
