import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnvText, readInstanceEnv, writeInstanceEnv } from './instance-env.js';

describe('instance.env', () => {
  it('parses comments, export, quotes and trailing comments', () => {
    expect(
      parseEnvText(
        '# c\nexport WEBAPI_PORT=7700\nWEBAPI_HOST="0.0.0.0"\nX = y # note\nnot a line\n\nQ=\'a b\'',
      ),
    ).toEqual({ WEBAPI_PORT: '7700', WEBAPI_HOST: '0.0.0.0', X: 'y', Q: 'a b' });
  });

  it('round-trips through a file; a missing file is empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ct-ienv-'));
    const file = join(dir, 'sub', 'instance.env');
    expect(readInstanceEnv(file)).toEqual({});
    writeInstanceEnv(file, { WEBAPI_HOST: '127.0.0.1', WEBAPI_PORT: 7701 });
    expect(readInstanceEnv(file)).toEqual({ WEBAPI_HOST: '127.0.0.1', WEBAPI_PORT: '7701' });
  });
});
