import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ConfigError, loadConfig } from '../../../src/config/app-config';
import { parseRef } from '../../../src/modules/catalog/catalog-refs';
import { parseByteRange } from '../../../src/modules/catalog/cdn/byte-range';
import { downloadName, megabytes } from '../../../src/modules/catalog/files/product-file.mapper';
import { cleanFilename, contentTypeFor, extensionOf } from '../../../src/modules/catalog/files/storage/content-type';
import { newStorageKey, StoredObjectMissing } from '../../../src/modules/catalog/files/storage/file-storage';
import { LocalFileStorage } from '../../../src/modules/catalog/files/storage/local-file-storage';
import {
  missingPublishFields,
  nextReviewStatus,
  PublishFacts,
} from '../../../src/modules/catalog/products/product-review';

describe('review state table', () => {
  it.each([
    ['draft', 'publish', 'pending'],
    ['rejected', 'publish', 'pending'],
    ['pending', 'publish', null],
    ['approved', 'publish', null],
    ['pending', 'approve', 'approved'],
    ['pending', 'reject', 'rejected'],
    ['draft', 'approve', null],
    ['approved', 'reject', null],
    ['rejected', 'approve', null],
  ] as const)('%s --%s--> %s', (from, trigger, to) => {
    expect(nextReviewStatus(from, trigger)).toBe(to);
  });
});

describe('publish requirements', () => {
  const complete: PublishFacts = {
    product: {
      name: 'Ebook',
      type: 'one_time',
      price: 5000,
      salePageUrl: 'https://x.example',
      imageUrl: 'https://x.example/i.png',
      category: 'A',
      subcategory: 'B',
      contactNumber: '+258840000000',
    },
    currency: 'MZN',
    fileCount: 1,
    planCount: 0,
  };

  it('nothing is missing from a complete product', () => {
    expect(missingPublishFields(complete)).toEqual({});
  });

  it('50 MZN is the least price in MZN, not elsewhere', () => {
    const cheap = { ...complete, product: { ...complete.product, price: 4999 } };
    expect(Object.keys(missingPublishFields(cheap))).toEqual(['price']);
    expect(missingPublishFields({ ...cheap, currency: 'USD' })).toEqual({});
  });

  it('blank strings count as missing', () => {
    const blank = { ...complete, product: { ...complete.product, category: '  ', imageUrl: '' } };
    expect(Object.keys(missingPublishFields(blank)).sort()).toEqual(['category', 'image']);
  });

  it('recurring products need a plan', () => {
    const recurring = { ...complete, product: { ...complete.product, type: 'recurring' as const } };
    expect(Object.keys(missingPublishFields(recurring))).toEqual(['plans']);
    expect(missingPublishFields({ ...recurring, planCount: 2 })).toEqual({});
  });
});

describe('byte ranges', () => {
  it.each([
    [undefined, 100, { kind: 'full' }],
    ['bytes=0-9', 100, { kind: 'partial', range: { start: 0, end: 9 } }],
    ['bytes=90-', 100, { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-10', 100, { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-500', 100, { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=50-500', 100, { kind: 'partial', range: { start: 50, end: 99 } }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=9-3', 100, { kind: 'full' }],
    ['bytes=0-1,5-6', 100, { kind: 'full' }],
    ['items=0-1', 100, { kind: 'full' }],
    ['bytes=0-1', 0, { kind: 'full' }],
  ])('%s of %d bytes', (header, size, expected) => {
    expect(parseByteRange(header, size)).toEqual(expected);
  });
});

describe('file helpers', () => {
  it('megabytes with two decimals, half up', () => {
    expect(megabytes(0)).toBe(0);
    expect(megabytes(1_048_576)).toBe(1);
    expect(megabytes(5_242)).toBe(0); // 0.004999 MB
    expect(megabytes(5_243)).toBe(0.01); // 0.0050001 MB
    expect(megabytes(2_569_011)).toBe(2.45);
  });

  it('extension, content type and safe names', () => {
    expect(extensionOf('Livro.PDF')).toBe('pdf');
    expect(extensionOf('README')).toBe('bin');
    expect(contentTypeFor('a.mp4', 'application/octet-stream')).toBe('video/mp4');
    expect(contentTypeFor('a.xyz', 'application/x-custom')).toBe('application/x-custom');
    expect(contentTypeFor('a.xyz', 'not a type')).toBe('application/octet-stream');
    expect(cleanFilename('../../etc/passwd')).toBe('passwd');
    expect(cleanFilename('C:\\Users\\me\\"evil".pdf')).toBe('evil.pdf');
    expect(cleanFilename('..')).toBe('file');
    expect(downloadName({ name: 'Capítulo 1', format: 'txt' })).toBe('Capítulo 1.txt');
    expect(downloadName({ name: 'a.pdf', format: 'pdf' })).toBe('a.pdf');
  });

  it('path ids: digits are ids (beyond int4 match nothing), anything else a public id', () => {
    expect(parseRef('42')).toEqual({ id: 42 });
    expect(parseRef('99999999999')).toEqual({ publicId: '99999999999' });
    expect(parseRef('3000000000')).toEqual({ id: 0 });
    expect(parseRef('prod_abc')).toEqual({ publicId: 'prod_abc' });
  });
});

describe('LocalFileStorage', () => {
  let dir: string;
  let storage: LocalFileStorage;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-storage-'));
    storage = new LocalFileStorage(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips bytes, whole and by range, and deletes', async () => {
    const key = newStorageKey();
    expect(await storage.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
    expect((await buffer(await storage.open(key))).toString()).toBe('hello world');
    expect((await buffer(await storage.open(key, { start: 6, end: 10 }))).toString()).toBe('world');
    await storage.delete(key);
    await expect(storage.open(key)).rejects.toBeInstanceOf(StoredObjectMissing);
    await storage.delete(key);
  });

  it('refuses keys that are not storage keys', async () => {
    await expect(storage.open('../../etc/passwd')).rejects.toBeInstanceOf(StoredObjectMissing);
  });

  it('keeps nothing of a failed write', async () => {
    const key = newStorageKey();
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('gone'));
      },
    });
    await expect(storage.put(key, failing)).rejects.toThrow('gone');
    await expect(storage.open(key)).rejects.toBeInstanceOf(StoredObjectMissing);
  });
});

describe('storage configuration', () => {
  it('defaults to the local disk under $DATA_DIR/files', () => {
    expect(loadConfig({ DATA_DIR: '/srv/data' }).storage).toEqual({ driver: 'local', directory: '/srv/data/files' });
  });

  it('reads the S3 settings', () => {
    const config = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'files',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.storage).toEqual({
      driver: 's3',
      bucket: 'files',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
  });

  it('stops on an S3 driver without a bucket or a driver name that cannot be one', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_DRIVER: 'Ftp!' })).toThrow(/STORAGE_DRIVER/);
  });

  it("keeps another driver's name for a plugin to provide (checked when storage is created)", () => {
    expect(loadConfig({ STORAGE_DRIVER: 'ftp', DATA_DIR: '/srv/data' }).storage).toEqual({
      driver: 'ftp',
      directory: '/srv/data/files',
    });
  });
});
