import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCliConfig } from './config.js';
import { COMMANDS, commandHelp, helpRequest, UsageError, usageText } from './usage.js';

describe('help requests', () => {
  it('prints every command for --help, -h and help', () => {
    for (const argv of [['--help'], ['-h'], ['help']]) expect(helpRequest(argv)).toBe(usageText());
    for (const name of Object.keys(COMMANDS)) expect(usageText()).toContain(COMMANDS[name]?.usage[0]);
  });

  it('prints one command’s usage and options for help <command> and <command> --help', () => {
    expect(helpRequest(['help', 'eval'])).toBe(commandHelp('eval'));
    expect(helpRequest(['eval', '--help'])).toBe(commandHelp('eval'));
    expect(helpRequest(['ask', 'what?', '-h', '--collection', 'team'])).toBe(commandHelp('ask'));
    expect(commandHelp('eval')).toMatch(/--mode MODE +lexical \(default\)/);
  });

  it('is not a help request otherwise; an unknown command is PP_VALIDATION', () => {
    expect(helpRequest(['ask', 'how does help work?'])).toBeNull();
    expect(helpRequest([])).toBeNull();
    expect(() => helpRequest(['help', 'frobnicate'])).toThrow(UsageError);
  });
});

describe('a wrong option', () => {
  it('is PP_VALIDATION naming the option, with that command’s usage', () => {
    const err = (() => {
      try {
        loadCliConfig(['ask', 'q', '--shw-sources'], {});
      } catch (e) {
        return e as UsageError;
      }
      throw new Error('no error');
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect(err.code).toBe('PP_VALIDATION');
    expect(err.message).toBe("Unknown option '--shw-sources' for 'pinpoint ask'.");
    expect(err.usage).toContain(COMMANDS.ask?.usage[0]);
    expect(() => loadCliConfig(['eval', '--out'], {})).toThrow(/Option '--out' needs a value for 'pinpoint eval'/);
  });
});

describe('pinpoint on the command line', () => {
  const bin = fileURLToPath(new URL('../bin/pinpoint.mjs', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'pp-cli-help-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pinpoint = (...args: string[]) =>
    promisify(execFile)(process.execPath, [bin, ...args], { env: { ...process.env, PINPOINT_DATA_DIR: dir } }).then(
      (r) => ({ ...r, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => e,
    );

  it('prints the usage for --help and <command> --help (stdout, exit 0)', async () => {
    const all = await pinpoint('--help');
    expect([all.code, all.stdout.trim()]).toEqual([0, usageText()]);
    const search = await pinpoint('search', '--help');
    expect([search.code, search.stdout.trim()]).toEqual([0, commandHelp('search')]);
  }, 60_000);

  it('refuses an unknown option with PP_VALIDATION and the command’s usage line (stderr, exit 2)', async () => {
    const r = await pinpoint('status', '--jsn');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("pinpoint: PP_VALIDATION: Unknown option '--jsn' for 'pinpoint status'.");
    expect(r.stderr).toContain('pinpoint status [--json]');
  }, 60_000);
});
