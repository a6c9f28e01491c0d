/**
 * Which engines a store uses, from configuration alone (DESIGN §5, §11): `CT_DATABASE_URL` selects
 * PostgreSQL for documents and views, `CT_S3_*` an S3 bucket for objects, each independently;
 * without them, the embedded SQLite file and object directory. A blank variable counts as unset.
 */
import { InvalidStoreSetting } from './contract.js';
import type { S3ObjectStoreOptions } from './s3-objects/s3-object-store.js';

export interface DatabaseSettings {
  /** `postgres://user:password@host:5432/database`, optionally `?schema=name`. */
  url: string;
  /** Overrides the schema named in the URL (default `public`). */
  schema?: string;
}

export interface StoreSettings {
  /** PostgreSQL for documents and views; absent: the embedded SQLite file. */
  database?: DatabaseSettings;
  /** An S3 bucket for objects; absent: the embedded object directory. */
  s3?: S3ObjectStoreOptions;
}

export type StoreEnv = Record<string, string | undefined>;

const S3_VARIABLES = [
  'CT_S3_ENDPOINT',
  'CT_S3_BUCKET',
  'CT_S3_REGION',
  'CT_S3_ACCESS_KEY_ID',
  'CT_S3_SECRET_ACCESS_KEY',
  'CT_S3_FORCE_PATH_STYLE',
] as const;

/** Every variable that chooses or configures an engine (docs/settings.md documents each). */
export const STORE_ENV_VARS = ['CT_DATABASE_URL', 'CT_DATABASE_SCHEMA', ...S3_VARIABLES] as const;

export function storeSettings(env: StoreEnv): StoreSettings {
  const get = (name: string) => {
    const v = env[name];
    return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
  };
  const settings: StoreSettings = {};
  const url = get('CT_DATABASE_URL');
  const schema = get('CT_DATABASE_SCHEMA');
  if (url) settings.database = { url, ...(schema ? { schema } : {}) };
  else if (schema) throw new InvalidStoreSetting('CT_DATABASE_SCHEMA is set but CT_DATABASE_URL is not');

  if (S3_VARIABLES.some((n) => get(n) !== undefined)) {
    const bucket = get('CT_S3_BUCKET');
    if (!bucket)
      throw new InvalidStoreSetting(`CT_S3_BUCKET is required when any of ${S3_VARIABLES.join(', ')} is set`);
    const accessKeyId = get('CT_S3_ACCESS_KEY_ID');
    const secretAccessKey = get('CT_S3_SECRET_ACCESS_KEY');
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
      throw new InvalidStoreSetting('set both CT_S3_ACCESS_KEY_ID and CT_S3_SECRET_ACCESS_KEY, or neither');
    }
    const endpoint = get('CT_S3_ENDPOINT');
    if (endpoint !== undefined && !/^https?:\/\/[^/]/i.test(endpoint)) {
      throw new InvalidStoreSetting(`CT_S3_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
    }
    const region = get('CT_S3_REGION');
    settings.s3 = {
      bucket,
      ...(endpoint ? { endpoint } : {}),
      ...(region ? { region } : {}),
      ...(accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : {}),
      forcePathStyle: flag(get('CT_S3_FORCE_PATH_STYLE'), 'CT_S3_FORCE_PATH_STYLE'),
    };
  }
  return settings;
}

function flag(value: string | undefined, name: string): boolean {
  if (value === undefined) return false;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new InvalidStoreSetting(`${name} must be true or false, got "${value}"`);
}
