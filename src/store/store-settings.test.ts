import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/support/paths.js';
import { InvalidStoreSetting, StoreConfigError } from './contract.js';
import { postgresSettings } from './postgres/postgres-settings.js';
import { STORE_ENV_VARS, storeSettings } from './store-settings.js';

describe('storeSettings', () => {
  it('chooses the embedded engines without configuration, blank variables included', () => {
    expect(storeSettings({})).toEqual({});
    expect(storeSettings({ CT_DATABASE_URL: ' ', CT_S3_BUCKET: '' })).toEqual({});
  });

  it('chooses PostgreSQL and S3 independently', () => {
    expect(storeSettings({ CT_DATABASE_URL: 'postgres://h/db', CT_DATABASE_SCHEMA: 'ct' })).toEqual({
      database: { url: 'postgres://h/db', schema: 'ct' },
    });
    expect(
      storeSettings({
        CT_S3_BUCKET: 'b',
        CT_S3_ENDPOINT: 'http://127.0.0.1:9000',
        CT_S3_REGION: 'eu-west-1',
        CT_S3_ACCESS_KEY_ID: 'k',
        CT_S3_SECRET_ACCESS_KEY: 's',
        CT_S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toEqual({
      s3: {
        bucket: 'b',
        endpoint: 'http://127.0.0.1:9000',
        region: 'eu-west-1',
        accessKeyId: 'k',
        secretAccessKey: 's',
        forcePathStyle: true,
      },
    });
    expect(storeSettings({ CT_S3_BUCKET: 'b' })).toEqual({ s3: { bucket: 'b', forcePathStyle: false } });
  });

  it('reads only variables docs/settings.md documents', () => {
    const doc = readFileSync(`${repoRoot}/docs/settings.md`, 'utf8');
    for (const name of STORE_ENV_VARS) expect(doc, name).toContain(`| \`${name}\``);
  });

  it('names the variable that is wrong', () => {
    const problem = (env: Record<string, string>) => {
      try {
        storeSettings(env);
        return '';
      } catch (err) {
        expect(err).toBeInstanceOf(StoreConfigError);
        return (err as Error).message;
      }
    };
    expect(problem({ CT_S3_ENDPOINT: 'http://x' })).toMatch(/CT_S3_BUCKET is required/);
    expect(problem({ CT_S3_BUCKET: 'b', CT_S3_ACCESS_KEY_ID: 'k' })).toMatch(/CT_S3_SECRET_ACCESS_KEY/);
    expect(problem({ CT_S3_BUCKET: 'b', CT_S3_FORCE_PATH_STYLE: 'maybe' })).toMatch(/CT_S3_FORCE_PATH_STYLE/);
    expect(problem({ CT_S3_BUCKET: 'b', CT_S3_ENDPOINT: 'minio:9000' })).toMatch(/CT_S3_ENDPOINT/);
    expect(problem({ CT_DATABASE_SCHEMA: 'x' })).toMatch(/CT_DATABASE_URL is not/);
  });
});

describe('postgresSettings', () => {
  const options = (s: { connectionString: string }) =>
    new URL(s.connectionString).searchParams.get('options');

  it('takes the schema from the setting, ?schema=, or the search_path option, else public', () => {
    expect(postgresSettings('postgres://u@h/db').schema).toBe('public');
    expect(postgresSettings('postgres://u@h/db?schema=ct_a').schema).toBe('ct_a');
    expect(postgresSettings('postgres://u@h/db?schema=ct_a', 'ct_b').schema).toBe('ct_b');
    const fromOptions = postgresSettings('postgres://u@h/db?options=-c%20search_path%3Dct_c');
    expect(fromOptions.schema).toBe('ct_c');
    expect(options(fromOptions)).toBe('-c random_page_cost=1.1 -c jit=off -c search_path=ct_c');
  });

  it('sets the search path on every connection and keeps other options', () => {
    const s = postgresSettings(
      'postgresql://u:pw@h:5433/db?schema=ct_a&options=-c%20statement_timeout%3D5000&sslmode=disable',
    );
    expect(options(s)).toBe(
      '-c statement_timeout=5000 -c random_page_cost=1.1 -c jit=off -c search_path=ct_a',
    );
    const tuned = postgresSettings('postgres://u@h/db?options=-c%20random_page_cost%3D2');
    expect(options(tuned)).toBe('-c random_page_cost=2 -c jit=off -c search_path=public');
    const jit = postgresSettings('postgres://u@h/db?options=-c%20jit%3Don');
    expect(options(jit)).toBe('-c jit=on -c random_page_cost=1.1 -c search_path=public');
    expect(new URL(s.connectionString).searchParams.get('schema')).toBeNull();
    expect(new URL(s.connectionString).searchParams.get('sslmode')).toBe('disable');
    expect(s.display).toBe('postgresql://u:***@h:5433/db?sslmode=disable');
  });

  it('refuses what it cannot use, without echoing a password', () => {
    expect(() => postgresSettings('mysql://h/db')).toThrow(StoreConfigError);
    expect(() => postgresSettings('not a url')).toThrow(/CT_DATABASE_URL must be a URL/);
    expect(() => postgresSettings('postgres://h/db?schema=a;drop')).toThrow(
      /CT_DATABASE_SCHEMA.*plain identifier/,
    );
    expect(() => postgresSettings('postgres://root:%zz@h/db')).toThrow(
      /CT_DATABASE_URL: the password is not valid percent-encoding/,
    );
    expect(() => postgresSettings('postgres://root:%zz@h/db')).toThrow(InvalidStoreSetting);
  });
});
