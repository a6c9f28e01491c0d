import { describe, expect, it } from 'vitest';
import { ApiConnectionError, ApiError, NotAnApiError } from '../client/api-error.js';
import { errorSentence, toolError, ToolInputError } from './errors.js';

describe('what a tool says when it cannot answer', () => {
  it('says to start the instance when nothing answers, or something else does', () => {
    const down = new ApiConnectionError(
      'http://127.0.0.1:1/api/sessions',
      'cannot reach the transcripts API at x.',
    );
    expect(errorSentence(down)).toMatch(
      /^The transcripts instance is not answering: cannot reach .* Start it with `transcripts serve`/,
    );
    const other = new NotAnApiError('u', 'x did not answer like a transcripts API.', 200, 'text/html');
    expect(errorSentence(other)).toMatch(/not answering: x did not answer like a transcripts API\. Start it/);
  });

  it('names the refused argument, the missing token, a missing thing', () => {
    const bad = new ApiError(400, 'bad_request', 'query parameter from: not an ISO date', 'GET', 'u');
    expect(errorSentence(bad)).toBe(
      'The instance refused the arguments: query parameter from: not an ISO date. Correct that argument and call the tool again.',
    );
    expect(errorSentence(new ApiError(401, 'unauthorized', 'the bearer token is wrong', 'GET', 'u'))).toMatch(
      /CT_API_TOKEN/,
    );
    expect(errorSentence(new ApiError(404, 'not_found', 'session "x" not found', 'GET', 'u'))).toBe(
      'Not found: session "x" not found. Check the id with search or list_sessions.',
    );
    expect(errorSentence(new ApiError(503, 'service_unavailable', 'view missing', 'GET', 'u'))).toMatch(
      /Wait a moment/,
    );
  });

  it("keeps the tool's own sentence, and marks the result as an error", () => {
    const r = toolError(new ToolInputError('No session has the id or prefix "z".'));
    expect(r).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'No session has the id or prefix "z".' }],
    });
    expect(errorSentence(new Error('boom'))).toMatch(/^The tool failed: boom\. Try again/);
  });
});
