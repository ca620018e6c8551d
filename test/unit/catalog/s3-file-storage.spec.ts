import { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { StoredObjectMissing } from '../../../src/modules/catalog/files/storage/file-storage';
import { createS3Client, S3FileStorage } from '../../../src/modules/catalog/files/storage/s3-file-storage';

interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string | null | string[]>;
  headers: Record<string, string>;
  body?: unknown;
}

async function bytesOf(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  return buffer(body as Readable);
}

const xml = (statusCode: number, text: string, headers: Record<string, string> = {}) => ({
  response: {
    statusCode,
    headers: { 'content-type': 'application/xml', ...headers },
    body: Readable.from([Buffer.from(text)]),
  },
});

/**
 * An S3 bucket in memory behind the SDK's request-handler seam: the real client serialises real
 * requests (paths, Range headers, multipart uploads) and no byte leaves the process.
 */
class FakeS3 {
  readonly objects = new Map<string, { body: Buffer; contentType?: string }>();
  readonly requests: string[] = [];
  private readonly uploads = new Map<string, { key: string; parts: Map<number, Buffer>; contentType?: string }>();

  readonly handler = {
    handle: (request: FakeRequest) => this.handle(request),
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };

  private async handle(request: FakeRequest) {
    const [, bucket, ...rest] = request.path.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const q = request.query ?? {};
    const op =
      `${request.method} ${'uploads' in q ? '?uploads' : 'uploadId' in q ? ('partNumber' in q ? '?part' : '?complete') : ''}`.trim();
    this.requests.push(op);
    if (bucket !== 'products') return xml(404, '<Error><Code>NoSuchBucket</Code><Message>no</Message></Error>');

    if (request.method === 'PUT' && 'partNumber' in q) {
      const upload = this.uploads.get(String(q.uploadId))!;
      upload.parts.set(Number(q.partNumber), await bytesOf(request.body));
      return {
        response: { statusCode: 200, headers: { etag: `"part-${String(q.partNumber)}"` }, body: Readable.from([]) },
      };
    }
    if (request.method === 'PUT') {
      this.objects.set(key, { body: await bytesOf(request.body), contentType: request.headers['content-type'] });
      return { response: { statusCode: 200, headers: { etag: '"etag"' }, body: Readable.from([]) } };
    }
    if (request.method === 'POST' && 'uploads' in q) {
      const id = `upload-${this.uploads.size + 1}`;
      this.uploads.set(id, { key, parts: new Map(), contentType: request.headers['content-type'] });
      return xml(
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (request.method === 'POST' && 'uploadId' in q) {
      const upload = this.uploads.get(String(q.uploadId))!;
      const parts = [...upload.parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
      this.objects.set(key, { body: Buffer.concat(parts), contentType: upload.contentType });
      return xml(
        200,
        `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
      );
    }
    if (request.method === 'DELETE' && 'uploadId' in q) {
      this.uploads.delete(String(q.uploadId));
      return { response: { statusCode: 204, headers: {}, body: Readable.from([]) } };
    }
    if (request.method === 'DELETE') {
      this.objects.delete(key);
      return { response: { statusCode: 204, headers: {}, body: Readable.from([]) } };
    }
    if (request.method === 'GET') {
      const object = this.objects.get(key);
      if (!object)
        return xml(404, '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
      const body = range ? object.body.subarray(Number(range[1]), Number(range[2]) + 1) : object.body;
      return {
        response: {
          statusCode: range ? 206 : 200,
          headers: {
            'content-length': String(body.length),
            'content-type': object.contentType ?? 'application/octet-stream',
          },
          body: Readable.from([body]),
        },
      };
    }
    return xml(400, '<Error><Code>BadRequest</Code><Message>unexpected</Message></Error>');
  }
}

describe('S3FileStorage', () => {
  let s3: FakeS3;
  let storage: S3FileStorage;

  beforeEach(() => {
    s3 = new FakeS3();
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: 'http://s3.test',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' },
      requestHandler: s3.handler as never,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    storage = new S3FileStorage(client, 'products');
  });

  it('stores a small stream with one PutObject and reports its size', async () => {
    const content = randomBytes(100_000);
    const { size } = await storage.put(
      'KEY1',
      Readable.from([content.subarray(0, 500), content.subarray(500)]),
      'application/pdf',
    );
    expect(size).toBe(content.length);
    expect(s3.objects.get('KEY1')).toEqual({ body: content, contentType: 'application/pdf' });
    expect(s3.requests).toEqual(['PUT']);
  });

  it('stores a large stream as a multipart upload, part by part', async () => {
    const content = randomBytes(9 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: Math.ceil(content.length / 65536) }, (_, i) =>
      content.subarray(i * 65536, (i + 1) * 65536),
    );
    const { size } = await storage.put('KEY2', Readable.from(chunks), 'video/mp4');
    expect(size).toBe(content.length);
    expect(Buffer.compare(s3.objects.get('KEY2')!.body, content)).toBe(0);
    expect(s3.requests).toEqual(['POST ?uploads', 'PUT ?part', 'PUT ?part', 'POST ?complete']);
  });

  it('reads an object whole and by range', async () => {
    const content = Buffer.from('0123456789abcdef');
    await storage.put('KEY3', Readable.from([content]), 'text/plain');
    expect((await buffer(await storage.open('KEY3'))).toString()).toBe('0123456789abcdef');
    expect((await buffer(await storage.open('KEY3', { start: 4, end: 9 }))).toString()).toBe('456789');
  });

  it('reports a missing object as StoredObjectMissing', async () => {
    await expect(storage.open('NOPE')).rejects.toBeInstanceOf(StoredObjectMissing);
  });

  it('deletes an object', async () => {
    await storage.put('KEY4', Readable.from([Buffer.from('x')]), 'text/plain');
    await storage.delete('KEY4');
    expect(s3.objects.has('KEY4')).toBe(false);
  });

  it('fails the upload when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('KEY5', failing, 'text/plain')).rejects.toThrow();
    expect(s3.objects.has('KEY5')).toBe(false);
  });

  it('builds a client from the S3_* settings', async () => {
    const client = createS3Client({
      bucket: 'b',
      region: 'eu-west-1',
      endpoint: 'http://minio.local:9000',
      accessKeyId: 'a',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    expect(await client.config.region()).toBe('eu-west-1');
    expect(client.config.forcePathStyle).toBe(true);
    const endpoint = await client.config.endpoint!();
    expect(endpoint.hostname).toBe('minio.local');
  });
});

describe('createFileStorage', () => {
  it('picks the driver named by STORAGE_DRIVER', async () => {
    const { createFileStorage } = await import('../../../src/modules/catalog/files/storage/file-storage.module');
    const { loadConfig } = await import('../../../src/config/app-config');
    const { LocalFileStorage } = await import('../../../src/modules/catalog/files/storage/local-file-storage');
    expect(await createFileStorage(loadConfig({}))).toBeInstanceOf(LocalFileStorage);
    expect(await createFileStorage(loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b' }))).toBeInstanceOf(S3FileStorage);
  });

  it('stops on a name no built-in driver or plugin provides', async () => {
    const { createFileStorage } = await import('../../../src/modules/catalog/files/storage/file-storage.module');
    const { loadConfig } = await import('../../../src/config/app-config');
    await expect(createFileStorage(loadConfig({ STORAGE_DRIVER: 'ftp' }))).rejects.toThrow(
      'Invalid configuration: STORAGE_DRIVER="ftp" names no storage driver (local, s3)',
    );
  });
});
