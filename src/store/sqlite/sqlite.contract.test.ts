import { afterEach } from 'vitest';
import { testEngine } from '../../../test/support/engines.js';
import { describeDocStoreContract } from '../contract/doc-store.case.js';
import { describeObjectStoreContract } from '../contract/object-store.case.js';
import { describeAnnotationsContract } from '../contract/annotations.case.js';
import { describeSecretsContract } from '../contract/secrets.case.js';
import { describeViewsContract } from '../contract/views.case.js';

/** Fresh embedded stores, each in its own temp dir (SQLite file + object directory). */
const engine = testEngine('sqlite');

// Runs after the suites' own afterEach has closed the store.
afterEach(() => engine.cleanup());

describeDocStoreContract(engine);
describeObjectStoreContract(engine);
describeViewsContract(engine);
describeAnnotationsContract(engine);
describeSecretsContract(engine);
