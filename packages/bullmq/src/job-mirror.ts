import type { Job, JobFilter } from '@pinpoint/core';
import type { Redis } from 'ioredis';

const FINAL = new Set<Job['state']>(['succeeded', 'failed', 'cancelled']);

export const isFinal = (job: Job): boolean => FINAL.has(job.state);

/**
 * The admin view of every job, kept in Redis beside BullMQ's own data: BullMQ decides what runs,
 * the mirror records what people need to see (state, stage, progress, attempts, error, times) and
 * outlives BullMQ's removal of finished jobs. Every write is published for subscribers.
 */
export class JobMirror {
  readonly eventsChannel: string;
  readonly cancelChannel: string;
  private readonly base: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    queueName: string,
  ) {
    this.base = `${prefix}:${queueName}:pp`;
    this.eventsChannel = `${this.base}:events`;
    this.cancelChannel = `${this.base}:cancel`;
  }

  async get(jobId: string): Promise<Job | null> {
    const raw = await this.redis.get(`${this.base}:job:${jobId}`);
    return raw ? (JSON.parse(raw) as Job) : null;
  }

  /** Writes the job unless it exists; returns the stored one. */
  async create(job: Job): Promise<Job> {
    const key = `${this.base}:job:${job.job_id}`;
    const [[, set] = [], [, raw] = []] = (await this.redis.multi().set(key, JSON.stringify(job), 'NX').get(key).exec()) ?? [];
    if (set === 'OK') await this.publishAndIndex(job);
    return typeof raw === 'string' ? (JSON.parse(raw) as Job) : job;
  }

  async put(job: Job): Promise<Job> {
    const json = JSON.stringify(job);
    await this.redis
      .multi()
      .set(`${this.base}:job:${job.job_id}`, json)
      .zadd(`${this.base}:jobs`, Date.parse(job.created_at), job.job_id)
      .publish(this.eventsChannel, json)
      .exec();
    return job;
  }

  private async publishAndIndex(job: Job): Promise<void> {
    await this.redis
      .multi()
      .zadd(`${this.base}:jobs`, Date.parse(job.created_at), job.job_id)
      .publish(this.eventsChannel, JSON.stringify(job))
      .exec();
  }

  /** Newest first. */
  async list(filter: JobFilter = {}): Promise<Job[]> {
    const limit = filter.limit ?? Number.POSITIVE_INFINITY;
    const out: Job[] = [];
    const ids = await this.redis.zrevrange(`${this.base}:jobs`, 0, -1);
    for (let i = 0; i < ids.length && out.length < limit; i += 200) {
      const batch = ids.slice(i, i + 200);
      const raws = await this.redis.mget(batch.map((id) => `${this.base}:job:${id}`));
      for (const raw of raws) {
        if (!raw || out.length >= limit) continue;
        const job = JSON.parse(raw) as Job;
        if (filter.state && job.state !== filter.state) continue;
        if (filter.collectionId && job.collection_id !== filter.collectionId) continue;
        if (filter.versionId && job.version_id !== filter.versionId) continue;
        out.push(job);
      }
    }
    return out;
  }

  async requestCancel(jobId: string): Promise<void> {
    await this.redis.multi().set(`${this.base}:cancel:${jobId}`, '1').publish(this.cancelChannel, jobId).exec();
  }

  async isCancelRequested(jobId: string): Promise<boolean> {
    return (await this.redis.exists(`${this.base}:cancel:${jobId}`)) === 1;
  }

  async clearCancel(jobId: string): Promise<void> {
    await this.redis.del(`${this.base}:cancel:${jobId}`);
  }

  /** Deletes every mirror key of this queue (tests, throw-away deployments). */
  async destroy(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.base}:*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
}
