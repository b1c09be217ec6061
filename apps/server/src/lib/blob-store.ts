import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config, StorageSettings } from '../config.ts';

/**
 * Where uploaded files' bytes live, by key (`<business_id>/<upload_id>`): a folder on this machine's disk, or
 * an S3-compatible bucket that every node of an installation shares.
 */
export type BlobStore = {
  /** Stores the bytes whole: a reader never sees half a file. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The bytes, or undefined when nothing is stored under the key. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes the bytes; a key already gone is not an error. */
  delete(key: string): Promise<void>;
};

export function createDiskStore(dataDir: string): BlobStore {
  const base = resolve(dataDir, 'uploads');
  const pathOf = (key: string) => {
    const path = resolve(base, key);
    // Keys are built from uuids; this only guards against a row that was tampered with.
    if (!path.startsWith(base + sep)) throw new Error(`storage key escapes the uploads directory: ${key}`);
    return path;
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(`${path}.part`, bytes);
      await rename(`${path}.part`, path);
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

export function createS3Store(settings: Extract<StorageSettings, { kind: 's3' }>): BlobStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  });
  const Bucket = settings.bucket;
  const Key = (key: string) => `${settings.prefix}${key}`;
  return {
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: Key(key), Body: bytes, ContentType: contentType }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: Key(key) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: Key(key) }));
    },
  };
}

const stores = new WeakMap<object, BlobStore>();

/** The store a configuration names; one per configuration, so its client and connections are reused. */
export function blobStoreOf(config: Pick<Config, 'dataDir' | 'storage'>): BlobStore {
  let store = stores.get(config);
  if (!store) {
    store = config.storage.kind === 's3' ? createS3Store(config.storage) : createDiskStore(config.dataDir);
    stores.set(config, store);
  }
  return store;
}
