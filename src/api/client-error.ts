/**
 * Requests Node's HTTP parser refuses before the app ever sees them — request line and headers
 * over Node's limit (431), an unparseable request (400), chunk extensions over their limit (413) —
 * answered in the API's error shape, `{error: {code, message}}`, instead of Node's bare status
 * line. Attach to the server's `'clientError'` event (src/server/start.ts).
 *
 * Attaching a listener replaces Node's own answer to every client error, so this keeps Node's
 * rules for when to answer at all: only on a socket still writable and with no response begun on
 * it, and the connection is closed afterwards (the parser cannot go on). A request timeout keeps
 * Node's bare 408: the client is still sending and is not reading.
 */
import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import { byteLimitWords } from './middleware/body-limit.js';
import type { ErrorCode } from './http-error.js';

/** What Node allows of a request's line and headers together (`--max-http-header-size`, default 16 KiB). */
export const MAX_HEADER_BYTES = maxHeaderSize;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/** A whole HTTP/1.1 response carrying the error body; the connection closes after it. */
export function errorResponseBytes(status: number, code: ErrorCode, message: string): string {
  const body = JSON.stringify({ error: { code, message } });
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** The answer to one client error, or null to close the connection without one. */
export function clientErrorResponse(
  err: NodeJS.ErrnoException,
  maxHeaderBytes = MAX_HEADER_BYTES,
): string | null {
  switch (err.code) {
    case 'ECONNRESET':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return errorResponseBytes(
        431,
        'too_large',
        `request line and headers are too large: over the ${byteLimitWords(maxHeaderBytes)} limit ` +
          '(a long query string counts; send fewer or shorter query parameters)',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return errorResponseBytes(413, 'too_large', 'chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';
    default: {
      const reason = (err as { reason?: unknown }).reason;
      return errorResponseBytes(
        400,
        'bad_request',
        `malformed HTTP request${typeof reason === 'string' && reason ? `: ${reason}` : ''}`,
      );
    }
  }
}

/** The `'clientError'` listener. */
export function onClientError(maxHeaderBytes = MAX_HEADER_BYTES) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    // Node's own condition: a response already under way on this socket must not be corrupted.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    const response = clientErrorResponse(err, maxHeaderBytes);
    if (response !== null && socket.writable && !inFlight?.headersSent) {
      // end() sends the answer, then the socket is destroyed once it is out.
      socket.once('finish', () => socket.destroy());
      socket.end(response);
    } else socket.destroy(err);
  };
}
