/** Configuration: paths, environment, settings, instance.env and the API URL order. */
export * from './api-token.js';
export * from './api-url.js';
export * from './config-error.js';
export * from './env.js';
export * from './instance-env.js';
export * from './paths.js';
export * from './settings.js';
