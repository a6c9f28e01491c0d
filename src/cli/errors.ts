/** A mistake in how a command was called (bad flag value, missing argument): exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
