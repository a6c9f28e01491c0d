/**
 * `transcripts hook`: what Claude Code runs for every hook event (registered by `hooks install`).
 * bin/transcripts.js normally takes a shortcut straight to ../hook-main.ts; this spec gives the
 * command its help text and serves `transcripts hook` when it arrives through the full CLI.
 */
import { defineCommand } from '../command.js';

export const hookCommand = defineCommand<Record<string, never>>({
  name: 'hook',
  summary: 'Record one Claude Code hook event (JSON payload on stdin); run by Claude Code',
  description:
    'Reads the hook payload Claude Code pipes in, records it as an event of its session, and ships the ' +
    'transcript bytes appended since the last call. When the API does not answer, it spools both to the ' +
    'data dir (live/spool/) and a later call or the server replays them in order. Always exits 0 and ' +
    'prints nothing on stdout; what happened goes to live/hook.log in the data dir (`transcripts hooks ' +
    'status` shows it; CT_HOOK_DEBUG=1 also prints it to stderr).',
  examples: [
    'echo \'{"session_id":"abc","hook_event_name":"Stop","transcript_path":"/home/me/.claude/projects/p/abc.jsonl"}\' | transcripts hook',
  ],
  options: [],
  parse: () => ({}),
  async run(_options, ctx) {
    // Loaded here, not at the top: `--help` imports every command's module, and needs no live/.
    const { hookMain } = await import('../hook-main.js');
    return hookMain({ env: ctx.env });
  },
});
