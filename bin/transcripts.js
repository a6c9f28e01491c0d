#!/usr/bin/env node
// The CLI entry point: runs the compiled CLI (built by `npm install` through the prepare script).
import { main } from '../dist/src/cli/main.js';

// A reader that goes away (`transcripts sessions | head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
