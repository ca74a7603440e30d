import {
  deleteDocumentResponseSchema,
  documentSummarySchema,
  documentsResponseSchema,
  elementsResponseSchema,
  identityCorrectionSchema,
  reprocessResponseSchema,
  versionDetailSchema,
} from '@pinpoint/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { documentParams, errorResponse, versionParams } from '../schemas.js';
import { callerOf } from '../security.js';

export const documentRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { guarded } = ctx;

  app.get(
    '/api/documents',
    {
      schema: {
        tags: ['documents'],
        querystring: z.object({ collection_id: z.string().optional() }),
        response: { 200: documentsResponseSchema },
      },
    },
    async (req) => ({ documents: await guarded.listDocuments(callerOf(req), req.query.collection_id) }),
  );

  app.get(
    '/api/documents/:documentId',
    { schema: { tags: ['documents'], params: documentParams, response: { 200: documentSummarySchema, 404: errorResponse } } },
    async (req) => guarded.getDocument(callerOf(req), req.params.documentId),
  );

  app.put(
    '/api/documents/:documentId/identity',
    {
      schema: {
        tags: ['documents'],
        description:
          'Editors: corrects what the document is about — `names`, `kind`, `period` (a field left out keeps what was read); ' +
          '`{"correction": null}` removes the correction. Every version, later ones included, inherits it.',
        params: documentParams,
        body: z.object({ correction: identityCorrectionSchema.nullable() }),
        response: { 200: documentSummarySchema, 400: errorResponse, 404: errorResponse },
      },
    },
    async (req) => guarded.correctIdentity(callerOf(req), req.params.documentId, req.body.correction),
  );

  app.delete(
    '/api/documents/:documentId',
    {
      schema: {
        tags: ['documents'],
        description:
          'Editors: deletes the document with every version, its index entries, artifacts and the blobs no other version shares.',
        params: documentParams,
        response: { 200: deleteDocumentResponseSchema, 404: errorResponse },
      },
    },
    async (req) => guarded.deleteDocument(callerOf(req), req.params.documentId),
  );

  app.get(
    '/api/versions/:versionId',
    { schema: { tags: ['documents'], params: versionParams, response: { 200: versionDetailSchema, 404: errorResponse } } },
    async (req) => guarded.getVersion(callerOf(req), req.params.versionId),
  );

  app.get(
    '/api/versions/:versionId/elements',
    {
      schema: {
        tags: ['documents'],
        params: versionParams,
        response: { 200: elementsResponseSchema, 404: errorResponse },
      },
    },
    async (req) => ({ elements: await guarded.getElements(callerOf(req), req.params.versionId) }),
  );

  app.post(
    '/api/versions/:versionId/reprocess',
    {
      schema: {
        tags: ['documents'],
        params: versionParams,
        response: { 201: reprocessResponseSchema, 404: errorResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await guarded.reprocess(callerOf(req), req.params.versionId)),
  );
};
