import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { businesses, type DbOrTx, uploads } from '@switchboard/db';
import type { Attachment } from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Config } from '../config.ts';

export type Upload = typeof uploads.$inferSelect;

/** Where a signed-in user fetches an upload's bytes. */
export const uploadContentUrl = (upload: { id: string }) => `/api/v1/uploads/${upload.id}/content`;

/** An upload as a message carries it. */
export const toAttachment = (upload: Upload): Attachment => ({
  id: upload.id,
  name: upload.name,
  content_type: upload.content_type,
  size: upload.size,
  url: uploadContentUrl(upload),
});

type StorageConfig = Pick<Config, 'dataDir'>;

/** Where a business image is served from; stored in businesses.image so the same origin serves it anywhere. */
export const PUBLIC_IMAGE_PREFIX = '/api/v1/public/images/';

export const publicImagePath = (uploadId: string) => `${PUBLIC_IMAGE_PREFIX}${uploadId}`;

/** The upload id a stored business image path names, or undefined for anything else (e.g. an external URL). */
export function uploadIdOfImage(image: string | null): string | undefined {
  if (!image?.startsWith(PUBLIC_IMAGE_PREFIX)) return undefined;
  return image.slice(PUBLIC_IMAGE_PREFIX.length) || undefined;
}

function root(config: StorageConfig): string {
  return resolve(config.dataDir, 'uploads');
}

function pathOf(config: StorageConfig, storageKey: string): string {
  const base = root(config);
  const path = resolve(base, storageKey);
  // Keys are built here from uuids; this only guards against a row that was tampered with.
  if (!path.startsWith(base + sep))
    throw new Error(`storage key escapes the uploads directory: ${storageKey}`);
  return path;
}

/**
 * Writes the bytes to `<dataDir>/uploads/<business_id>/<upload_id>` and records the upload. The file is
 * written first (through a temporary name, so a reader never sees half of it); if the row cannot be
 * inserted the file is removed again.
 */
export async function saveUpload(
  db: DbOrTx,
  config: StorageConfig,
  input: { business_id: string; user_id: string | null; name: string; content_type: string; bytes: Buffer },
): Promise<Upload> {
  const id = uuidv7();
  const storageKey = `${input.business_id}/${id}`;
  const path = pathOf(config, storageKey);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.part`, input.bytes);
  await rename(`${path}.part`, path);
  try {
    const [row] = await db
      .insert(uploads)
      .values({
        id,
        business_id: input.business_id,
        user_id: input.user_id,
        name: input.name.slice(0, 255),
        content_type: input.content_type,
        size: input.bytes.length,
        storage_key: storageKey,
      })
      .returning();
    return row!;
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}

export async function findUpload(db: DbOrTx, businessId: string, id: string): Promise<Upload | undefined> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.business_id, businessId)));
  return row;
}

/** An upload that some business currently shows as its image: the only uploads served without a login. */
export async function findPublicImage(db: DbOrTx, id: string): Promise<Upload | undefined> {
  const [row] = await db
    .select({ upload: uploads })
    .from(uploads)
    .innerJoin(
      businesses,
      and(eq(businesses.id, uploads.business_id), eq(businesses.image, publicImagePath(id))),
    )
    .where(eq(uploads.id, id));
  return row?.upload;
}

/** The stored bytes, or undefined when the file is gone. */
export async function readUpload(config: StorageConfig, upload: Upload): Promise<Buffer | undefined> {
  try {
    return await readFile(pathOf(config, upload.storage_key));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes the file; a file already gone is not an error. */
export async function deleteUploadFile(config: StorageConfig, upload: Pick<Upload, 'storage_key'>) {
  await rm(pathOf(config, upload.storage_key), { force: true });
}

/** Removes the row and then the file. */
export async function deleteUpload(db: DbOrTx, config: StorageConfig, upload: Upload): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, upload.id));
  await deleteUploadFile(config, upload);
}
