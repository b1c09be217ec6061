import { businesses, type DbOrTx, invoiceBranding, uploads, users } from '@switchboard/db';
import { type Attachment, clipText } from '@switchboard/shared';
import { and, eq, or, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { Config } from '../config.ts';
import { blobStoreOf } from './blob-store.ts';

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

type StorageConfig = Pick<Config, 'dataDir' | 'storage'>;

/** Where a business image is served from; stored in businesses.image so the same origin serves it anywhere. */
export const PUBLIC_IMAGE_PREFIX = '/api/v1/public/images/';

export const publicImagePath = (uploadId: string) => `${PUBLIC_IMAGE_PREFIX}${uploadId}`;

/** The upload id a stored business image path names, or undefined for anything else (e.g. an external URL). */
export function uploadIdOfImage(image: string | null): string | undefined {
  if (!image?.startsWith(PUBLIC_IMAGE_PREFIX)) return undefined;
  return image.slice(PUBLIC_IMAGE_PREFIX.length) || undefined;
}

/**
 * Stores the bytes under `<business_id>/<upload_id>` (in DATA_DIR/uploads, or the S3 bucket) and records the
 * upload. The bytes are stored first, whole; if the row cannot be inserted they are removed again.
 */
export async function saveUpload(
  db: DbOrTx,
  config: StorageConfig,
  input: { business_id: string; user_id: string | null; name: string; content_type: string; bytes: Buffer },
): Promise<Upload> {
  const id = uuidv7();
  const storageKey = `${input.business_id}/${id}`;
  const store = blobStoreOf(config);
  await store.put(storageKey, input.bytes, input.content_type);
  try {
    const [row] = await db
      .insert(uploads)
      .values({
        id,
        business_id: input.business_id,
        user_id: input.user_id,
        name: clipText(input.name, 255),
        content_type: input.content_type,
        size: input.bytes.length,
        storage_key: storageKey,
      })
      .returning();
    return row!;
  } catch (error) {
    await store.delete(storageKey);
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
  const path = publicImagePath(id);
  // Public only while it is a business's image, its invoice logo or a person's avatar.
  const [row] = await db
    .select({ upload: uploads })
    .from(uploads)
    .where(
      and(
        eq(uploads.id, id),
        or(
          sql`exists (select 1 from ${businesses} b where b.id = ${uploads.business_id} and b.image = ${path})`,
          sql`exists (select 1 from ${users} u where u.avatar = ${path})`,
          sql`exists (select 1 from ${invoiceBranding} ib where ib.business_id = ${uploads.business_id} and ib.logo = ${path})`,
        ),
      ),
    );
  return row?.upload;
}

/** The stored bytes, or undefined when the file is gone. */
export function readUpload(config: StorageConfig, upload: Upload): Promise<Buffer | undefined> {
  return blobStoreOf(config).get(upload.storage_key);
}

/** Removes the file; a file already gone is not an error. */
export async function deleteUploadFile(config: StorageConfig, upload: Pick<Upload, 'storage_key'>) {
  await blobStoreOf(config).delete(upload.storage_key);
}

/** Removes the row and then the file. */
export async function deleteUpload(db: DbOrTx, config: StorageConfig, upload: Upload): Promise<void> {
  await db.delete(uploads).where(eq(uploads.id, upload.id));
  await deleteUploadFile(config, upload);
}
