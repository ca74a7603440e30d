import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadWorkerConfig } from './config.js';

const ROOT = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; target: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  deploy?: { replicas: number };
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
  ports?: string[];
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;

describe('docker-compose.yml (Docker cannot run here: its structure is checked instead)', () => {
  it('has the design card services, with a scalable worker', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'postgres', 'qdrant', 'redis', 'web', 'worker']);
    expect(services.worker?.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.worker?.ports).toBeUndefined();
  });

  it('runs Redis with noeviction and AOF from infra/redis.conf', () => {
    const redis = services.redis;
    expect(redis?.command).toEqual(['redis-server', '/usr/local/etc/redis/redis.conf']);
    expect(redis?.volumes).toContain('./infra/redis.conf:/usr/local/etc/redis/redis.conf:ro');
    const conf = read('infra/redis.conf');
    expect(conf).toMatch(/^maxmemory-policy noeviction$/m);
    expect(conf).toMatch(/^appendonly yes$/m);
    expect(redis?.healthcheck?.test).toContain('redis-cli');
  });

  it('builds api, worker and web from targets that exist in infra/Dockerfile', () => {
    const dockerfile = read('infra/Dockerfile');
    for (const name of ['api', 'worker', 'web']) {
      const build = services[name]?.build;
      expect(build).toMatchObject({ context: '.', dockerfile: 'infra/Dockerfile', target: name });
      expect(dockerfile).toMatch(new RegExp(`^FROM \\S+ AS ${name}$`, 'm'));
    }
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim AS deps$/m);
    expect(dockerfile).toMatch(/libreoffice-nogui/);
    expect(dockerfile).toMatch(/tesseract-ocr/);
    expect(read('infra/nginx.conf')).toMatch(/proxy_pass http:\/\/api:8080/);
  });

  it('gives the worker an environment its config accepts, pointing at the compose services', () => {
    const env = services.worker?.environment ?? {};
    const config = loadWorkerConfig(env);
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.databaseUrl).toMatch(/@postgres:5432\//);
    expect(config.queue.concurrency).toBe(2);
    expect(services.api?.environment?.PINPOINT_MODE).toBe('distributed');
    expect(services.api?.environment?.PINPOINT_REDIS_URL).toBe(env.PINPOINT_REDIS_URL);
    expect(services.api?.environment?.PINPOINT_QUEUE_NAME).toBe(env.PINPOINT_QUEUE_NAME);
  });

  it('shares the blob volume between api and workers, gives the drain time to finish, waits for healthy stores', () => {
    expect(services.api?.volumes).toContain('blobs:/data');
    expect(services.worker?.volumes).toContain('blobs:/data');
    expect(Number.parseInt(services.worker?.stop_grace_period ?? '0', 10) * 1000).toBeGreaterThan(
      Number(services.worker?.environment?.PINPOINT_DRAIN_TIMEOUT_MS),
    );
    for (const name of ['api', 'worker']) {
      expect(services[name]?.depends_on).toEqual({
        redis: { condition: 'service_healthy' },
        postgres: { condition: 'service_healthy' },
      });
    }
    const used = Object.values(services)
      .flatMap((s) => (s.volumes ?? []).map((v) => v.split(':')[0] ?? ''))
      .filter((v) => !v.startsWith('.'));
    for (const v of used) expect(Object.keys(compose.volumes)).toContain(v);
  });
});
