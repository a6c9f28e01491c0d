import { viewMigration } from './migration.js';

export const sessionSecrets = viewMigration({
  version: 17,
  name: 'session-secrets',
  view: 'session_secrets',
  description:
    "Each session's count of likely secrets, total and by rule, from its summary (never a secret): " +
    'what the list filters on (has:secrets) and `transcripts secrets` reads.',
  from: ['summary'],
});
