import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OfficeConverter } from '@pinpoint/core';
import { createError, PinpointError } from '@pinpoint/core';
import { runCommand } from '../ocr/run-command.js';

export interface LibreOfficeOptions {
  /** Path or name of the soffice binary. */
  binary?: string;
  /** Time limit of a conversion: this base plus `timeoutMsPerMb` for each MB of input (default 30 s + 10 s/MB). */
  timeoutMs?: number;
  timeoutMsPerMb?: number;
  /** Parent folder of each call's private work folder (input, output, user profile). */
  tmpDir?: string;
}

const EXT = /^[a-z0-9]{1,8}$/;
const MB = 1024 * 1024;

/**
 * How long one conversion may run: a base (LibreOffice's start-up) plus a share per MB of input, so
 * a damaged 10 kB .ppt that LibreOffice loops on is stopped in seconds instead of holding a parse
 * slot for the whole parse limit, while a large deck still gets the time it needs (the parse limit
 * stays the outer bound).
 */
export function conversionTimeoutMs(
  bytes: number,
  options: Pick<LibreOfficeOptions, 'timeoutMs' | 'timeoutMsPerMb'> = {},
): number {
  return Math.round((options.timeoutMs ?? 30_000) + (options.timeoutMsPerMb ?? 10_000) * (bytes / MB));
}

/**
 * OfficeConverter over LibreOffice headless. Every call gets its own user profile
 * (-env:UserInstallation), so concurrent conversions never share or lock one; the whole process
 * group is killed on timeout or abort. Missing soffice → PP_DEPENDENCY_MISSING; a file LibreOffice
 * cannot load → PP_CONVERSION_FAILED.
 */
export function createLibreOfficeConverter(options: LibreOfficeOptions = {}): OfficeConverter {
  const binary = options.binary ?? 'soffice';
  return {
    id: 'libreoffice',
    async convert(bytes, fromExt, toExt, signal) {
      if (!EXT.test(fromExt)) throw createError('PP_VALIDATION', `Bad source extension "${fromExt}".`);
      const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), 'pp-office-'));
      try {
        const input = join(dir, `input.${fromExt}`);
        const outDir = join(dir, 'out');
        await mkdir(outDir);
        await writeFile(input, bytes);
        const profile = pathToFileURL(join(dir, 'profile')).href;
        const args = [
          '--headless',
          '--norestore',
          '--nolockcheck',
          `-env:UserInstallation=${profile}`,
          '--convert-to',
          toExt,
          '--outdir',
          outDir,
          input,
        ];
        const result = await runCommand(binary, args, {
          tool: 'LibreOffice',
          timeoutMs: conversionTimeoutMs(bytes.byteLength, options),
          signal,
          cwd: dir,
        });
        const output = await readFile(join(outDir, `input.${toExt}`)).catch(() => undefined);
        if (!output || output.byteLength === 0) {
          const why = (result.stderr.trim() || result.stdout.toString().trim()).split('\n').at(-1) ?? '';
          throw new PinpointError(
            'PP_CONVERSION_FAILED',
            `LibreOffice could not convert the .${fromExt} file to .${toExt}; it may be damaged or protected.`,
            { detail: why || `exit ${result.code}` },
          );
        }
        return new Uint8Array(output);
      } catch (err) {
        if (err instanceof PinpointError || signal?.aborted) throw err;
        throw createError(
          'PP_CONVERSION_FAILED',
          `LibreOffice could not convert the .${fromExt} file; it may be damaged or protected.`,
          err,
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
