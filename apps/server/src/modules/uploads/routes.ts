import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.ts';
import { IdParams, isUuid } from '../../lib/fields.ts';
import { findPublicImage, readUpload } from './storage.ts';

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  // Public on purpose: business images appear in the widget, emails and invoices, where nobody is logged in.
  app.get('/public/images/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const { id } = request.params;
    const upload = isUuid(id) ? await findPublicImage(app.db, id) : undefined;
    const bytes = upload && (await readUpload(app.config, upload));
    if (!upload || !bytes) throw notFound('Image');
    return (
      reply
        .header('content-type', upload.content_type)
        .header('content-length', bytes.length)
        // An upload id never names other bytes: a replaced image gets a new id.
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(bytes)
    );
  });
};
