/** The API client (browser-safe). The Node-only ingest sink is `./http-sink.js`. */
export * from './api-client.js';
export * from './api-error.js';
