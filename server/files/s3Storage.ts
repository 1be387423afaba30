// File storage in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...; docs/files.md "Storage"), set by
// one variable: FILES_S3_URL=http(s)://<access key>:<secret>@<host>[:port]/<bucket>[/<prefix>][?region=<r>].
// Uploads stream as a multipart upload (@aws-sdk/lib-storage: at most two 5 MB parts in memory); one that
// fails is aborted, so S3 keeps neither the object nor its parts.
import type { Readable } from 'node:stream';
import type { FileStorage } from './storage';

export interface S3Location {
  endpoint: string;
  region: string;
  bucket: string;
  /** Prepended to every key ('' or ending in '/'). */
  prefix: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** FILES_S3_URL's parts; a URL without user and password leaves the credentials to the SDK (environment, instance role). */
export const parseS3Url = (text: string): S3Location => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('FILES_S3_URL must be a URL: http(s)://<key>:<secret>@<host>[:port]/<bucket>');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('FILES_S3_URL must start with http:// or https://');
  const [bucket, ...prefix] = url.pathname.split('/').filter(Boolean);
  if (!bucket) throw new Error('FILES_S3_URL must name the bucket as its path: http(s)://<key>:<secret>@<host>[:port]/<bucket>');
  const user = decodeURIComponent(url.username);
  return {
    endpoint: `${url.protocol}//${url.host}`,
    region: url.searchParams.get('region') ?? 'us-east-1',
    bucket: decodeURIComponent(bucket),
    prefix: prefix.length ? `${prefix.map(decodeURIComponent).join('/')}/` : '',
    credentials: user ? { accessKeyId: user, secretAccessKey: decodeURIComponent(url.password) } : undefined,
  };
};

const PART_BYTES = 5 * 1024 * 1024;

const isNotFound = (error: unknown) => {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return failure?.name === 'NoSuchKey' || failure?.name === 'NotFound' || failure?.$metadata?.httpStatusCode === 404;
};

export const createS3Storage = async (s3Url: string): Promise<FileStorage> => {
  const location = parseS3Url(s3Url);
  // loaded only by installations that use it (it adds to the start-up time); a dynamic import stays one in the bundle
  const { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = new S3Client({
    endpoint: location.endpoint,
    region: location.region,
    credentials: location.credentials,
    // bucket in the path, not the host name: what every S3-compatible store answers
    forcePathStyle: true,
    // checksums only where S3 requires them: several compatible stores reject the SDK's default trailers
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = location.bucket;
  const keyOf = (key: string) => `${location.prefix}${key}`;

  return {
    description: `s3 ${location.endpoint}/${location.bucket}${location.prefix ? `/${location.prefix}` : ''}`,
    async put(key, body: Readable, contentType) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: keyOf(key), Body: body, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
      });
      // the stream's own failure (a refused or broken upload) is the one to report, not what aborting said
      let streamError: unknown;
      body.once('error', (error) => (streamError ??= error));
      try {
        await upload.done();
      } catch (error) {
        body.destroy();
        throw streamError ?? error;
      }
    },
    async get(key, range) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        return (answer.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async stat(key) {
      try {
        const answer = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return { size: answer.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    async close() {
      client.destroy();
    },
  };
};
