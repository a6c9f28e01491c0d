/**
 * `instance.env` in the config dir: `KEY=VALUE` lines naming where the installed instance listens.
 * `transcripts serve` writes it at start; CLI clients and the UI dev server read it to find the API.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirsSync } from './make-dirs.js';

/** Parses dotenv-style text: `KEY=VALUE`, `export KEY=VALUE`, `#` comments, optional quotes. */
export function parseEnvText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2]!;
    else value = value.replace(/\s+#.*$/, '').trim();
    out[m[1]!] = value;
  }
  return out;
}

/** Reads an instance.env; an absent or unreadable file is an empty record. */
export function readInstanceEnv(file: string): Record<string, string> {
  try {
    return parseEnvText(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/** Writes an instance.env atomically (temp file + rename); `writer` names who wrote it. */
export function writeInstanceEnv(
  file: string,
  values: Record<string, string | number>,
  writer = '`transcripts serve` at start',
): void {
  makeDirsSync(dirname(file));
  const body =
    `# Written by ${writer}: where this instance listens.\n` +
    Object.entries(values)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join('\n') +
    '\n';
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, body);
  renameSync(tmp, file);
}
