/**
 * Zod for the web UI, off its just-in-time path: import `z` from here, not from 'zod'. Zod 4
 * tries `new Function("")` to see whether it may compile fast object parsers; under the UI's
 * Content-Security-Policy (script-src 'self', no 'unsafe-eval': src/api/middleware/
 * security-headers.ts) that try is refused and reported as a violation, though Zod then falls back
 * by itself. The choice is read when a schema is made, so it must come before every schema: a
 * module of its own that every schema module imports does that, whatever chunks the build makes.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
