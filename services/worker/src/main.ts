import { loadWorkerConfig } from './config.js';
import { startWorker } from './worker.js';

function log(event: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), service: 'worker', event, ...fields })}\n`);
}

const worker = await startWorker(loadWorkerConfig(), log);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log('draining', { signal });
    worker.stop().then(
      () => process.exit(0),
      (err: Error) => {
        log('drain-failed', { message: err.message });
        process.exit(1);
      },
    );
  });
}
