/**
 * `transcripts note <id> [text]`: set a session's note (Markdown): the text given, else stdin when it
 * is not a terminal, else the current note opened in `$VISUAL`/`$EDITOR`. `--clear` removes it,
 * `--show` prints it. An edit in the editor is sent with the revision it started from, so a
 * change made meanwhile elsewhere is refused (409), not overwritten.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotationsApi } from '../../client/annotations-client.js';
import { MAX_NOTE_BYTES } from '../../core/annotation-rules.js';
import { UsageError } from '../errors.js';
import { defineCommand } from '../command.js';
import { resolveSessionId } from './shared/session-ref.js';
import { jsonOption, webapiOf, webapiOption } from './shared/options.js';

export interface NoteOptions {
  ref: string;
  text?: string;
  clear: boolean;
  show: boolean;
  json: boolean;
  webapi?: string;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function editInEditor(initial: string, env: Record<string, string | undefined>): string {
  const editor = env.VISUAL || env.EDITOR;
  if (!editor)
    throw new UsageError(
      'no text given and neither $VISUAL nor $EDITOR is set: pass the note as an argument or on stdin',
    );
  const dir = mkdtempSync(join(tmpdir(), 'ct-note-'));
  const file = join(dir, 'note.md');
  try {
    writeFileSync(file, initial, { mode: 0o600 });
    // Through the shell, as git runs $EDITOR: the variable may hold arguments ("code --wait").
    const r = spawnSync(`${editor} "$CT_NOTE_FILE"`, {
      shell: true,
      stdio: 'inherit',
      env: { ...process.env, CT_NOTE_FILE: file },
    });
    if (r.status !== 0)
      throw new UsageError(
        `the editor (${editor}) exited with status ${r.status ?? r.signal}; note left unchanged`,
      );
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const noteCommand = defineCommand<NoteOptions>({
  name: 'note',
  summary: "Set, show or clear a session's note (Markdown)",
  description:
    `The note is the text argument, else stdin when it is not a terminal, else the current note opened in ` +
    `$VISUAL or $EDITOR. At most ${MAX_NOTE_BYTES} bytes. --show prints the note, --clear removes it. ` +
    'Full-text search (transcripts search, GET /api/search, the web UI) finds notes with the entries.',
  examples: [
    'transcripts note 5c0375b4 "Fixed by pinning the pool size"',
    'git log -1 --format=%B | transcripts note 5c0375b4',
    'transcripts note 5c0375b4          # opens $EDITOR',
    'transcripts note 5c0375b4 --show',
  ],
  args: [
    { name: '<id>', description: 'session id or unique prefix', apiParams: ['id'] },
    { name: '[text...]', description: 'the note (else stdin or $EDITOR)', apiParams: ['note'] },
  ],
  options: [
    { flags: '--clear', description: 'remove the note' },
    { flags: '--show', description: 'print the note and change nothing' },
    jsonOption,
    webapiOption,
  ],
  parse(raw, args) {
    const [ref, ...words] = args;
    if (!ref?.trim()) throw new UsageError('give a session id');
    const clear = raw.clear === true;
    const show = raw.show === true;
    if (clear && show) throw new UsageError('--clear and --show do not go together');
    if ((clear || show) && words.length) throw new UsageError(`--${clear ? 'clear' : 'show'} takes no text`);
    return {
      ref: ref.trim(),
      ...(words.length ? { text: words.join(' ') } : {}),
      clear,
      show,
      json: raw.json === true,
      webapi: webapiOf(raw),
    };
  },
  async run(options, ctx) {
    const { client } = ctx.client(options.webapi);
    const api = annotationsApi(client);
    const id = await resolveSessionId(client, options.ref);
    let result;
    if (options.show) result = await api.get(id);
    else if (options.clear) result = await api.clearNote(id);
    else if (options.text !== undefined) result = await api.note(id, options.text);
    else if (!process.stdin.isTTY) result = await api.note(id, await readStdin());
    else {
      const current = await api.get(id);
      const edited = editInEditor(current.note, ctx.env);
      result = edited === current.note ? current : await api.note(id, edited, current.rev);
    }
    if (options.json) ctx.io.out(JSON.stringify(result, null, 2));
    else if (options.show) ctx.io.out(result.note || '(no note)');
    else
      ctx.io.out(
        `${result.sessionId}: ${result.note ? `note of ${result.note.length} characters` : 'no note'}`,
      );
    return 0;
  },
});
