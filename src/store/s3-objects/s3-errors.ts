/** Reading the AWS SDK's errors: HTTP status and "no such object", however the server phrased it. */

export function httpStatus(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

export function isNotFound(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return httpStatus(err) === 404 || name === 'NoSuchKey' || name === 'NotFound';
}

/**
 * The server does not implement the operation: S3-compatibles without UploadPartCopy answer 501
 * NotImplemented or (s3rver) 405 MethodNotAllowed. AWS S3 answers neither for a valid request.
 */
export function isNotImplemented(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  const status = httpStatus(err);
  return status === 501 || status === 405 || name === 'NotImplemented' || name === 'MethodNotAllowed';
}
