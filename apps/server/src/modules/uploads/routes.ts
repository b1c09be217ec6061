import { uploads } from '@switchboard/db';
import {
  ATTACHMENT_MAX_BYTES,
  AttachmentSchema,
  answer,
  attachmentTooLarge,
  IdParams,
  isUuid,
} from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, notFound } from '../../errors.ts';
import { headerContentType, sendUpload } from '../../lib/file-response.ts';
import { findPublicImage, readUpload, saveUpload, uploadContentUrl } from '../../lib/storage.ts';
import { downloadActor, requireBusiness } from '../../plugins/auth.ts';
import { sniffAttachmentType } from './attachments.ts';
import { readSingleFile } from './multipart.ts';
import { findUploadFor } from './scope.ts';

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  // Public on purpose: business images appear in the widget, emails and invoices, where nobody is logged in.
  app.get('/public/images/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const { id } = request.params;
    const upload = isUuid(id) ? await findPublicImage(app.db, id) : undefined;
    const bytes = upload && (await readUpload(app.config, upload));
    if (!upload || !bytes) throw notFound('Image');
    return (
      reply
        .header('content-type', headerContentType(upload.content_type))
        .header('content-length', bytes.length)
        // An upload id never names other bytes: a replaced image gets a new id.
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(bytes)
    );
  });

  // A file for a message: stored for the business, its type taken from its bytes.
  app.post(
    '/uploads',
    { onRequest: app.authenticate, schema: { response: { 200: answer(AttachmentSchema) } } },
    async (request) => {
      const a = requireBusiness(request.actor);
      const file = await readSingleFile(request, {
        field: 'file',
        // The web app refuses larger files before sending them, from the same shared limit.
        maxBytes: Math.min(app.config.uploadMaxBytes, ATTACHMENT_MAX_BYTES),
        tooLarge: (max) => new AppError('payload_too_large', attachmentTooLarge(max)),
      });
      const content_type = await sniffAttachmentType(file.bytes, file.name);
      const upload = await saveUpload(app.db, app.config, {
        business_id: a.business_id,
        user_id: a.user_id,
        name: file.name || 'attachment',
        content_type,
        bytes: file.bytes,
      });
      return {
        body: {
          id: upload.id,
          name: upload.name,
          content_type,
          size: upload.size,
          url: uploadContentUrl(upload),
        },
      };
    },
  );

  /**
   * A sound a person uploaded for their notifications: theirs in every business they open (uploads otherwise
   * belong to one business), and only sounds. The cookie suffices, for an <audio> element.
   */
  app.get('/user/me/sounds/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const actor = await downloadActor(app, request);
    const { id } = request.params;
    const [file] = isUuid(id)
      ? await app.db
          .select()
          .from(uploads)
          .where(and(eq(uploads.id, id), eq(uploads.user_id, actor.user_id)))
      : [];
    return sendUpload(reply, app.config, file?.content_type.startsWith('audio/') ? file : undefined);
  });

  /**
   * The bytes of one of the business's uploads (for a staff member limited to some locations, one of theirs).
   * Accepts the bearer token or the web app's `access` cookie, so an <img> or a download link in the inbox works
   * without script.
   */
  app.get('/uploads/:id/content', { schema: { params: IdParams } }, async (request, reply) => {
    const a = requireBusiness(await downloadActor(app, request));
    const { id } = request.params;
    return sendUpload(reply, app.config, isUuid(id) ? await findUploadFor(app.db, a, id) : undefined);
  });
};
