import type { Job } from '@pinpoint/core';
import { createError, jobSchema, jobsResponseSchema } from '@pinpoint/core';
import type { EngineJobs } from '@pinpoint/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RouteContext } from '../context.js';
import { sendStreamError } from '../errors.js';
import { errorResponse, jobParams, jobsQuery } from '../schemas.js';

const event = (job: Job): string => `event: job\ndata: ${JSON.stringify(job)}\n\n`;

/** SSE: the live jobs first, then every change; ends on client close or server shutdown. */
async function streamJobs(
  queue: EngineJobs,
  streams: Set<() => void>,
  collectionId: string | undefined,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const wanted = (job: Job): boolean => !collectionId || job.collection_id === collectionId;
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  reply.raw.on('error', (err) => req.log.warn({ err }, 'job event stream: the connection failed'));
  let live: Job[];
  try {
    live = [...(await queue.list({ state: 'queued' })), ...(await queue.list({ state: 'running' }))];
  } catch (err) {
    sendStreamError(req.log, reply.raw, err);
    reply.raw.end();
    return;
  }
  for (const job of live.filter(wanted)) reply.raw.write(event(job));
  const unsubscribe = queue.subscribe((job) => {
    if (wanted(job)) reply.raw.write(event(job));
  });
  const ping = setInterval(() => reply.raw.write(': ping\n\n'), 15_000);
  const end = (): void => {
    clearInterval(ping);
    unsubscribe();
    streams.delete(end);
    if (!reply.raw.writableEnded) reply.raw.end();
  };
  streams.add(end);
  req.raw.on('close', end);
}

/**
 * Cancels, then waits briefly for a running job to stop, so the response carries the final state
 * (a client that also listens to the event stream never sees an older state arrive last).
 */
async function cancelAndSettle(queue: EngineJobs, jobId: string, waitMs = 5000): Promise<Job> {
  let job = await queue.cancel(jobId);
  const deadline = Date.now() + waitMs;
  while (job.state === 'running' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    job = (await queue.get(jobId)) ?? job;
  }
  return job;
}

export const jobRoutes: FastifyPluginAsyncZod<{ ctx: RouteContext }> = async (app, { ctx }) => {
  const queue = ctx.engine.jobs;
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });

  app.get(
    '/api/jobs',
    { schema: { tags: ['jobs'], querystring: jobsQuery, response: { 200: jobsResponseSchema } } },
    async (req) => {
      const q = req.query;
      const jobs = await queue.list({
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
    async (req, reply) => streamJobs(queue, streams, req.query.collection_id, req, reply),
  );

  app.get(
    '/api/jobs/:jobId',
    { schema: { tags: ['jobs'], params: jobParams, response: { 200: jobSchema, 404: errorResponse } } },
    async (req) => {
      const job = await queue.get(req.params.jobId);
      if (!job) throw createError('PP_NOT_FOUND', `Job ${req.params.jobId} does not exist.`);
      return job;
    },
  );

  app.post(
    '/api/jobs/:jobId/cancel',
    { schema: { tags: ['jobs'], params: jobParams, response: { 200: jobSchema, 404: errorResponse, 409: errorResponse } } },
    async (req) => cancelAndSettle(queue, req.params.jobId),
  );

  app.post(
    '/api/jobs/:jobId/retry',
    { schema: { tags: ['jobs'], params: jobParams, response: { 200: jobSchema, 404: errorResponse, 409: errorResponse } } },
    async (req) => queue.retry(req.params.jobId),
  );
};
