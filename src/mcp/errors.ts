/**
 * What a tool says when it cannot answer: one sentence naming what went wrong and what to do,
 * returned as an MCP tool error (`isError: true`) so the model can act on it; the server itself
 * goes on serving.
 */
import { ApiConnectionError, ApiError } from '../client/api-error.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A problem with the arguments that the tool itself found: its message is the whole answer. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

/** The sentence for `err`, as the model is to read it. */
export function errorSentence(err: unknown): string {
  if (err instanceof ToolInputError) return err.message;
  if (err instanceof ApiConnectionError)
    return (
      `The transcripts instance is not answering: ${err.message} ` +
      'Start it with `transcripts serve` (or fix the address the MCP server was given), then call the tool again.'
    );
  if (err instanceof ApiError) {
    const what = err.message.replace(/[.\s]+$/, '');
    if (err.status === 401)
      return (
        `The instance refused the request (${what}). ` +
        'Give the MCP server the instance token in CT_API_TOKEN and restart it.'
      );
    if (err.status === 404) return `Not found: ${what}. Check the id with search or list_sessions.`;
    if (err.status >= 400 && err.status < 500)
      return `The instance refused the arguments: ${what}. Correct that argument and call the tool again.`;
    if (err.status === 503)
      return `The instance is not ready (${what}). Wait a moment and call the tool again.`;
    return `The instance failed (HTTP ${err.status}: ${what}). Try again; if it keeps failing, run \`transcripts doctor\`.`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `The tool failed: ${message}. Try again; if it keeps failing, run \`transcripts doctor\`.`;
}

export function toolError(err: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorSentence(err) }] };
}
