import { uploads, users } from '@switchboard/db';
import { isUuid, type UserMe } from '@switchboard/shared';
import { eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import {
  deleteUpload,
  deleteUploadFile,
  publicImagePath,
  saveUpload,
  uploadIdOfImage,
} from '../../lib/storage.ts';
import { requireBusiness } from '../../plugins/auth.ts';
import { IMAGE_TYPES, imageTooLarge } from '../businesses/service.ts';
import { getMe } from './service.ts';

type Ctx = Pick<Context, 'db' | 'actor' | 'config'>;

/** The person's previous avatar upload, removed with the row; its file is deleted after the commit. */
async function detachAvatar(tx: Ctx['db'], userId: string) {
  const [user] = await tx
    .select({ avatar: users.avatar })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  const id = uploadIdOfImage(user?.avatar ?? null);
  if (!id || !isUuid(id)) return undefined;
  const [old] = await tx
    .delete(uploads)
    .where(eq(uploads.id, id))
    .returning({ storage_key: uploads.storage_key });
  return old;
}

/**
 * `PUT /user/me/avatar`: the signed-in person's picture (PNG, JPEG, WebP or GIF, read from its bytes),
 * shown beside their replies and to website visitors. Stored with the selected business's files.
 */
export async function setAvatar(ctx: Ctx, file: { name: string; bytes: Buffer }): Promise<UserMe> {
  const a = requireBusiness(ctx.actor);
  if (file.bytes.length > ctx.config.imageMaxBytes) throw imageTooLarge(ctx.config.imageMaxBytes);
  const sniffed = await fileTypeFromBuffer(file.bytes);
  if (!sniffed || !IMAGE_TYPES.has(sniffed.mime)) {
    throw new AppError('unsupported_media_type', 'The picture must be a PNG, JPEG, WebP or GIF file.');
  }
  const upload = await saveUpload(ctx.db, ctx.config, {
    business_id: a.business_id,
    user_id: a.user_id,
    name: file.name,
    content_type: sniffed.mime,
    bytes: file.bytes,
  });
  let old: { storage_key: string } | undefined;
  try {
    old = await ctx.db.transaction(async (tx) => {
      const previous = await detachAvatar(tx, a.user_id);
      await tx
        .update(users)
        .set({ avatar: publicImagePath(upload.id) })
        .where(eq(users.id, a.user_id));
      return previous;
    });
  } catch (error) {
    await deleteUpload(ctx.db, ctx.config, upload).catch(() => {});
    throw error;
  }
  if (old) await deleteUploadFile(ctx.config, old).catch(() => {});
  return getMe(ctx);
}

/** `DELETE /user/me/avatar`: back to initials. */
export async function clearAvatar(ctx: Ctx): Promise<UserMe> {
  const old = await ctx.db.transaction(async (tx) => {
    const previous = await detachAvatar(tx, ctx.actor.user_id);
    await tx.update(users).set({ avatar: null }).where(eq(users.id, ctx.actor.user_id));
    return previous;
  });
  if (old) await deleteUploadFile(ctx.config, old).catch(() => {});
  return getMe(ctx);
}
