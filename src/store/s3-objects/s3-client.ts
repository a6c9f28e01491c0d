/**
 * The one way an `S3Client` is made here, so the object store and the test S3 server's own
 * client talk to a bucket alike.
 */
import { S3Client } from '@aws-sdk/client-s3';

export interface S3ClientOptions {
  /** Default `us-east-1` (what most S3-compatible servers accept). */
  region?: string;
  /** For S3-compatible servers, e.g. `http://127.0.0.1:9000`; AWS when absent. */
  endpoint?: string;
  /** Without both, the AWS SDK's default credential chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key` (MinIO, Garage, s3rver). */
  forcePathStyle?: boolean;
}

export function createS3Client(options: S3ClientOptions): S3Client {
  // On Node 20 the SDK warns, at every start, that its releases after January 2027 will need
  // Node 22: a note for whoever upgrades the SDK here (the lockfile pins one that runs on 20),
  // not for someone running `transcripts`. The SDK's own switch turns it off.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: several S3-compatible servers reject the newer
    // default trailers. Integrity is ours: every put is verified against its sha256.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
