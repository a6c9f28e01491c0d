/**
 * The connection pool of the CLI's patient requests: no limit on waiting for a response. Node's
 * fetch gives up when response headers take more than 300 s, and the API answers a reindex or a
 * migration only once it is done. On PostgreSQL a reindex takes about 40 s per GB of history,
 * so on an instance of some 8 GB `reindex` (and the reindex that ends an import) failed with
 * "cannot reach the API" while the server carried on. Ctrl-C still ends the wait (the request's
 * abort signal). Node-only, and kept out of api-client.ts, which hooks and browsers load.
 */
import { Agent } from 'undici';

export const patientDispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
