import { artifactKindSchema, downloadUrlResponseSchema } from '@pinpoint/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { bytesResponse, errorResponse, versionParams } from '../schemas.js';

/** Types a browser may render from our origin; anything else is served as opaque bytes. */
const INLINE_SAFE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'application/json', 'application/x-ndjson']);

function servedType(kind: string, mime: string): string {
  if (kind === 'text') return 'text/plain; charset=utf-8';
  const base = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return INLINE_SAFE.has(base) ? base : 'application/octet-stream';
}

const contentDisposition = (name: string): string => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;

export const artifactRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { engine, signer } = ctx;

  app.get(
    '/api/versions/:versionId/artifacts/:kind',
    {
      schema: {
        tags: ['artifacts'],
        description: 'The artifact bytes, checked against their sha256 (header X-Content-SHA256); 409 when they no longer match.',
        params: z.object({ versionId: z.string().min(1), kind: artifactKindSchema }),
        querystring: z.object({ name: z.string().optional() }),
        response: { 200: bytesResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (req, reply) => {
      const { artifact, bytes } = await engine.readArtifact(req.params.versionId, req.params.kind, req.query.name);
      return reply
        .header('content-type', servedType(artifact.kind, artifact.mime))
        .header('x-content-sha256', artifact.sha256)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );

  app.get(
    '/api/versions/:versionId/download-url',
    {
      schema: {
        tags: ['artifacts'],
        params: versionParams,
        response: { 200: downloadUrlResponseSchema, 404: errorResponse },
      },
    },
    async (req) => {
      await engine.getVersion(req.params.versionId);
      return signer.sign(req.params.versionId);
    },
  );

  app.get(
    '/api/download/:versionId',
    {
      schema: {
        tags: ['artifacts'],
        description: 'The original file, byte-identical, through a signed URL from download-url.',
        params: versionParams,
        querystring: z.object({ expires: z.coerce.number().int(), sig: z.string().regex(/^[0-9a-f]{1,128}$/) }),
        response: { 200: bytesResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (req, reply) => {
      signer.verify(req.params.versionId, req.query.expires, req.query.sig);
      const { artifact, bytes } = await engine.readArtifact(req.params.versionId, 'original');
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', contentDisposition(artifact.name))
        .header('x-content-sha256', artifact.sha256)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
};
