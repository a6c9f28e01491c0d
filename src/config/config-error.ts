/**
 * A configuration problem the user must fix (a bad port, a non-loopback bind without a token).
 * The CLI maps it to exit code 2, like a usage error; the message says what to change.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
