import { afterAll, afterEach } from 'vitest';
import { testEngine } from '../../../test/support/engines.js';
import { describeDocStoreContract } from '../contract/doc-store.case.js';
import { describeObjectStoreContract } from '../contract/object-store.case.js';
import { describeAnnotationsContract } from '../contract/annotations.case.js';
import { describeSecretsContract } from '../contract/secrets.case.js';
import { describeViewsContract } from '../contract/views.case.js';

/**
 * Fresh PostgreSQL + S3 stores: a new schema in the test database and a new bucket on an s3rver
 * per store. Skipped, with the reason in every title, when no PostgreSQL answers.
 */
const engine = testEngine('postgres');

// Runs after the suites' own afterEach has closed the store.
afterEach(() => engine.cleanup());
afterAll(() => engine.stop());

describeDocStoreContract(engine);
describeObjectStoreContract(engine);
describeViewsContract(engine);
describeAnnotationsContract(engine);
describeSecretsContract(engine);
