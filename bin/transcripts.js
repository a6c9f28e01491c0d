#!/usr/bin/env node
// The CLI entry point: runs the compiled CLI (built by `npm install` through the prepare script).
import { readFileSync } from 'node:fs';

// A reader that goes away (`transcripts sessions | head`) is not an error: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

// The history is private: everything the CLI, the hook and the server create (the store, its
// objects, the hook's spool and log, export bundles) is the owner's alone, whatever umask the
// shell or service manager gave (src/config/private-files.ts).
process.umask(process.umask(0o077) | 0o077);

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === 'hook') {
  // Claude Code runs this on every hook event and waits for it: skip commander and the other
  // commands' imports (the server, the store, zod), and never exit non-zero.
  const done = () => process.exit(0);
  const failed = (err) => {
    // Not even the hook's code could load (a broken install): only say so when asked.
    if (process.env.CT_HOOK_DEBUG) console.error(`transcripts hook: ${err?.stack ?? err}`);
    done();
  };
  import('../dist/src/cli/hook-main.js').then((m) => m.hookMain().then(done, failed), failed);
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // What commander prints for it (main.ts), without loading commander or any command.
  process.stdout.write(
    `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`,
  );
} else {
  import('../dist/src/cli/main.js').then(
    ({ main }) =>
      main(args).then(
        (code) => process.exit(code),
        (err) => {
          console.error(err instanceof Error ? err.message : String(err));
          process.exit(1);
        },
      ),
    (err) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
