import type { Artifact, Principal, Version } from '@pinpoint/core';
import { artifactKindSchema, createError, downloadUrlResponseSchema, LOCAL_PRINCIPAL } from '@pinpoint/core';
import { principalOf, signerId } from '@pinpoint/engine';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { bytesResponse, errorResponse, versionParams } from '../schemas.js';
import { callerOf } from '../security.js';

/** Types a browser may render from our origin; anything else is served as opaque bytes. */
const INLINE_SAFE = new Set(['application/pdf', 'image/png', 'image/jpeg', 'application/json', 'application/x-ndjson']);

/** The type we detected from the bytes (the original) or wrote ourselves (derived artifacts) — never the uploader's claim. */
function sniffedType(artifact: Artifact, version: Version): string {
  const mime = artifact.kind === 'original' ? (version.sniffed_mime ?? 'application/octet-stream') : artifact.mime;
  return mime.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
}

function inlineType(artifact: Artifact, version: Version): string {
  if (artifact.kind === 'text') return 'text/plain; charset=utf-8';
  const type = sniffedType(artifact, version);
  return INLINE_SAFE.has(type) ? type : 'application/octet-stream';
}

const contentDisposition = (name: string): string => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;

const sendBytes = (reply: FastifyReply, bytes: Uint8Array) =>
  reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

const artifactQuery = z.object({ artifact: artifactKindSchema.default('original'), name: z.string().max(500).optional() });

export const artifactRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { guarded, signer } = ctx;

  /** The principal a signed URL was minted for, if that user still exists (membership is checked by the read). */
  const signedPrincipal = async (userId: string): Promise<Principal> => {
    if (userId === 'local' && !ctx.config.auth.enabled) return LOCAL_PRINCIPAL;
    const user = userId === 'local' ? null : await guarded.access.getUser(userId);
    if (!user) throw createError('PP_UNAUTHORIZED', 'The download link is not valid; ask for a new one.');
    return principalOf(user);
  };

  app.get(
    '/api/versions/:versionId/artifacts/:kind',
    {
      schema: {
        tags: ['artifacts'],
        description:
          'The artifact bytes for a member of its collection, checked against their sha256 (header X-Content-SHA256); 409 when they no longer match.',
        params: z.object({ versionId: z.string().min(1), kind: artifactKindSchema }),
        querystring: z.object({ name: z.string().optional() }),
        response: { 200: bytesResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { versionId, kind } = req.params;
      const { artifact, bytes } = await guarded.readArtifact(caller, versionId, kind, req.query.name);
      const { version } = await guarded.getVersion(caller, versionId);
      if (kind === 'original') {
        await guarded.audit(caller, {
          action: 'download',
          collection_id: version.collection_id,
          target: versionId,
          detail: { kind },
        });
      }
      reply
        .header('content-type', inlineType(artifact, version))
        .header('x-content-sha256', artifact.sha256)
        .header('cache-control', 'private, no-cache')
        .header('content-security-policy', "default-src 'none'; sandbox");
      if (kind === 'original') reply.header('content-disposition', contentDisposition(artifact.name));
      return sendBytes(reply, bytes);
    },
  );

  app.get(
    '/api/versions/:versionId/download-url',
    {
      schema: {
        tags: ['artifacts'],
        description:
          'A short-lived URL for one artifact (default the original) that works without cookies or token, for this user only.',
        params: versionParams,
        querystring: artifactQuery,
        response: { 200: downloadUrlResponseSchema, 404: errorResponse },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { artifacts } = await guarded.getVersion(caller, req.params.versionId);
      const { artifact: kind, name } = req.query;
      if (!artifacts.some((a) => a.kind === kind && (name === undefined || a.name === name)))
        throw createError(
          'PP_NOT_FOUND',
          `Version ${req.params.versionId} has no ${kind} artifact${name ? ` named ${name}` : ''}.`,
        );
      return signer.sign({ userId: signerId(caller), versionId: req.params.versionId, kind, ...(name ? { name } : {}) });
    },
  );

  app.get(
    '/api/download/:versionId',
    {
      config: { public: true },
      schema: {
        tags: ['artifacts'],
        description:
          'An artifact, byte-identical, as an attachment, through a signed URL from download-url; the signer must still be a member.',
        params: versionParams,
        querystring: artifactQuery.extend({
          u: z.string().min(1).max(100),
          expires: z.coerce.number().int(),
          kid: z.string().regex(/^[0-9a-f]{1,32}$/),
          sig: z.string().regex(/^[0-9a-f]{1,128}$/),
        }),
        response: { 200: bytesResponse, 401: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const { versionId } = req.params;
      signer.verify({ userId: q.u, versionId, kind: q.artifact, ...(q.name ? { name: q.name } : {}) }, q.expires, q.kid, q.sig);
      const principal = await signedPrincipal(q.u);
      const { artifact, bytes } = await guarded.readArtifact(principal, versionId, q.artifact, q.name);
      const { version } = await guarded.getVersion(principal, versionId);
      await guarded.audit(principal, {
        action: 'download',
        collection_id: version.collection_id,
        target: versionId,
        detail: { kind: q.artifact, signed: true },
      });
      reply
        .header('content-type', sniffedType(artifact, version))
        .header('content-disposition', contentDisposition(artifact.name))
        .header('x-content-sha256', artifact.sha256)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('content-security-policy', "default-src 'none'; sandbox");
      return sendBytes(reply, bytes);
    },
  );
};
