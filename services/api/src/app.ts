import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import type { AccessStore } from '@pinpoint/core';
import type { Engine } from '@pinpoint/engine';
import { createGuardedEngine, createIdentity, createInvitations, invitationDepsOf, UrlSigner } from '@pinpoint/engine';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { RouteContext } from './context.js';
import { installErrorHandling } from './errors.js';
import { installHistoryRetention } from './history-retention.js';
import { artifactRoutes } from './routes/artifacts.js';
import { authRoutes } from './routes/auth.js';
import { collectionRoutes } from './routes/collections.js';
import { documentRoutes } from './routes/documents.js';
import { historyRoutes } from './routes/history.js';
import { invitationRoutes } from './routes/invitations.js';
import { jobRoutes } from './routes/jobs.js';
import { mcpRoutes } from './routes/mcp.js';
import { memberRoutes } from './routes/members.js';
import { queryRoutes } from './routes/query.js';
import { spaRoutes } from './routes/spa.js';
import { newRequestId, requestForLog, securityPlugin } from './security.js';

export interface AppDeps {
  engine: Engine;
  /** Users, sessions, tokens, memberships, audit log: beside the engine's metadata. */
  access: AccessStore;
  /** HMAC secret for signed download URLs (previous ones: config.signing.previous). */
  signingSecret: string;
}

const API_VERSION = '0.1.0';

/** Builds the Fastify app (no listen): every route is an encapsulated plugin with zod schemas. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, serializers: { req: requestForLog } },
    bodyLimit: 1024 * 1024,
    genReqId: newRequestId,
    trustProxy: config.auth.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installHistoryRetention(app, deps.access, config.historyRetentionDays);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Pinpoint API',
        version: API_VERSION,
        description: 'Document Q&A whose every citation opens at the exact place in the original.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(multipart, {
    limits: { fileSize: config.engine.maxUploadBytes, files: config.maxFilesPerUpload, fields: 20 },
  });
  const identity = createIdentity(deps.access, { sessionTtlSeconds: config.auth.sessionTtlSeconds });
  await app.register(securityPlugin, { config, identity });
  const guarded = createGuardedEngine(deps.engine, deps.access);
  const ctx: RouteContext = {
    engine: deps.engine,
    guarded,
    identity,
    invitations: createInvitations(invitationDepsOf(guarded), identity, { ttlSeconds: config.auth.inviteTtlSeconds }),
    signer: new UrlSigner(deps.signingSecret, config.signing.ttlSeconds, config.signing.previous),
    config,
  };
  const open = { config: { public: true }, schema: { hide: true } };
  app.get('/api/health', open, async () => ({ ok: true, version: API_VERSION }));
  app.get('/api/openapi.json', open, async () => app.swagger());
  await app.register(authRoutes, { ctx });
  await app.register(memberRoutes, { ctx });
  await app.register(invitationRoutes, { ctx });
  await app.register(collectionRoutes, { ctx });
  await app.register(jobRoutes, { ctx });
  await app.register(documentRoutes, { ctx });
  await app.register(queryRoutes, { ctx });
  await app.register(historyRoutes, { ctx });
  await app.register(artifactRoutes, { ctx });
  await app.register(mcpRoutes, { ctx });
  await app.register(spaRoutes, { ctx });
  return app;
}
