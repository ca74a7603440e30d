import type { IncomingMessage } from 'node:http';
import type { Job, Principal } from '@pinpoint/core';
import { jobSchema, jobsResponseSchema } from '@pinpoint/core';
import type { GuardedEngine } from '@pinpoint/engine';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { errorResponse, jobParams, jobsQuery } from '../schemas.js';
import { callerOf } from '../security.js';

const event = (job: Job): string => `event: job\ndata: ${JSON.stringify(job)}\n\n`;

/**
 * SSE: the live jobs first, then every change; ends on client close or server shutdown. Every job
 * is checked against the caller's collections as it is written, so a revoked member stops seeing
 * events at once.
 */
async function streamJobs(
  guarded: GuardedEngine,
  principal: Principal,
  streams: Set<() => void>,
  collectionId: string | undefined,
  req: IncomingMessage,
  reply: FastifyReply,
): Promise<void> {
  if (collectionId !== undefined) await guarded.authorize(principal, collectionId, 'viewer');
  const wanted = async (job: Job): Promise<boolean> =>
    (!collectionId || job.collection_id === collectionId) && (await guarded.canSeeJob(principal, job));
  const live = [
    ...(await guarded.listJobs(principal, { state: 'queued', ...(collectionId ? { collectionId } : {}) })),
    ...(await guarded.listJobs(principal, { state: 'running', ...(collectionId ? { collectionId } : {}) })),
  ];
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  reply.raw.on('error', (err) => reply.log.warn({ err }, 'job event stream: the connection failed'));
  for (const job of live) reply.raw.write(event(job));
  let chain = Promise.resolve();
  const unsubscribe = guarded.engine.jobs.subscribe((job) => {
    chain = chain.then(async () => {
      if ((await wanted(job).catch(() => false)) && !reply.raw.writableEnded) reply.raw.write(event(job));
    });
  });
  const ping = setInterval(() => reply.raw.write(': ping\n\n'), 15_000);
  const end = (): void => {
    clearInterval(ping);
    unsubscribe();
    streams.delete(end);
    if (!reply.raw.writableEnded) reply.raw.end();
  };
  streams.add(end);
  req.on('close', end);
}

/**
 * Cancels, then waits briefly for a running job to stop, so the response carries the final state
 * (a client that also listens to the event stream never sees an older state arrive last).
 */
async function cancelAndSettle(guarded: GuardedEngine, principal: Principal, jobId: string, waitMs = 5000): Promise<Job> {
  let job = await guarded.cancelJob(principal, jobId);
  const deadline = Date.now() + waitMs;
  while (job.state === 'running' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    job = (await guarded.engine.jobs.get(jobId)) ?? job;
  }
  return job;
}

export const jobRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const { guarded } = ctx;
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });

  app.get(
    '/api/jobs',
    { schema: { tags: ['jobs'], querystring: jobsQuery, response: { 200: jobsResponseSchema } } },
    async (req) => {
      const q = req.query;
      const jobs = await guarded.listJobs(callerOf(req), {
        ...(q.state ? { state: q.state } : {}),
        ...(q.collection_id ? { collectionId: q.collection_id } : {}),
        ...(q.version_id ? { versionId: q.version_id } : {}),
        ...(q.limit ? { limit: q.limit } : {}),
      });
      return { jobs };
    },
  );

  app.get(
    '/api/jobs/events',
    {
      schema: {
        tags: ['jobs'],
        description: 'Server-sent events: `event: job` with the Job as JSON on every change.',
        querystring: z.object({ collection_id: z.string().optional() }),
      },
    },
    async (req, reply) => streamJobs(guarded, callerOf(req), streams, req.query.collection_id, req.raw, reply),
  );

  app.get(
    '/api/jobs/:jobId',
    { schema: { tags: ['jobs'], params: jobParams, response: { 200: jobSchema, 404: errorResponse } } },
    async (req) => guarded.getJob(callerOf(req), req.params.jobId),
  );

  app.post(
    '/api/jobs/:jobId/cancel',
    { schema: { tags: ['jobs'], params: jobParams, response: { 200: jobSchema, 404: errorResponse, 409: errorResponse } } },
    async (req) => cancelAndSettle(guarded, callerOf(req), req.params.jobId),
  );

  app.post(
    '/api/jobs/:jobId/retry',
    { schema: { tags: ['jobs'], params: jobParams, response: { 200: jobSchema, 404: errorResponse, 409: errorResponse } } },
    async (req) => guarded.retryJob(callerOf(req), req.params.jobId),
  );
};
