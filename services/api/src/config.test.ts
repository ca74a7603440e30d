import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const read = (rel: string): string => readFileSync(new URL(rel, import.meta.url), 'utf8');

describe('configuration', () => {
  it('has defaults, lets flags win over variables, and is frozen', () => {
    const c = loadConfig({ PINPOINT_PORT: '9000' }, ['--port', '9001', '--data-dir', '/tmp/pp-data']);
    expect(c.port).toBe(9001);
    expect(c.dataDir).toBe('/tmp/pp-data');
    expect(c.host).toBe('127.0.0.1');
    expect(Object.isFrozen(c) && Object.isFrozen(c.engine.parse)).toBe(true);
    expect(() => loadConfig({ PINPOINT_PORT: 'eighty' }, [])).toThrow(/PINPOINT_PORT/);
  });

  it('loads the calibrated gate of PINPOINT_GATE_FILE at start-up, and names the variable when it is unusable', () => {
    const file = new URL('../../../packages/answering/calibration/lexical.json', import.meta.url).pathname;
    const c = loadConfig({ PINPOINT_GATE_FILE: file }, []);
    expect(c.engine.gate?.calibration).toMatchObject({ file, mode: 'lexical', embedder: null });
    expect(c.engine.gate?.config.models.latin.threshold).toBeGreaterThan(0);
    expect(loadConfig({}, []).engine.gate).toBeUndefined();
    expect(() => loadConfig({ PINPOINT_GATE_FILE: '/nonexistent/gate.json' }, [])).toThrow(/PINPOINT_GATE_FILE/);
  });

  it('documents every PINPOINT_* variable it reads in docs/configuration.md', () => {
    const readme = read('../../../docs/configuration.md');
    const names = new Set(
      [
        ...(
          read('./config.ts') +
          read('../../../packages/compose/src/models-config.ts') +
          read('../../../packages/compose/src/env-config.ts')
        ).matchAll(/PINPOINT_[A-Z0-9_]*[A-Z0-9]\b/g),
      ].map((m) => m[0]),
    );
    const missing = [...names].filter((n) => !readme.includes(`\`${n}\``));
    expect(missing).toEqual([]);
  });
});
