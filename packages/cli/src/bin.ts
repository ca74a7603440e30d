import { createModelPorts } from '@pinpoint/compose';
import { toPinpointError } from '@pinpoint/core';
import { formatMetricsTable, runEval } from '@pinpoint/eval';
import { runAccounts } from './accounts.js';
import { calibrate, calibrationTable } from './calibrate.js';
import type { CliConfig } from './config.js';
import { loadCliConfig } from './config.js';
import { openEmbeddedEngine } from './embedded.js';
import { createEvalEngine, recordEvalRun, withDataset } from './eval.js';
import { humanIngestLine, ingestFiles } from './ingest.js';
import { runInvite } from './invite.js';
import { runMaintenance } from './maintenance.js';
import { serveMcpStdio } from './mcp.js';
import { askQuestion, humanAnswer, humanSearch, searchQuery } from './query.js';
import { humanStatus, readStatus } from './status.js';
import { humanTable, tablesOf } from './tables.js';
import { humanPageText, printTexts } from './text.js';
import { COMMANDS, helpRequest, UsageError, usageText } from './usage.js';

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function withEngine<T>(
  cfg: CliConfig,
  fn: (engine: ReturnType<typeof openEmbeddedEngine>) => Promise<T>,
  { models = true } = {},
): Promise<T> {
  // The configured models, as the server on the same folder has them: chunks ingested here get
  // their vectors, and ask/search run the same pipeline as the API. `status` needs none.
  const ports = models ? await createModelPorts(cfg.models, cfg.dataDir) : {};
  const engine = openEmbeddedEngine(cfg.dataDir, cfg.engine, ports);
  let result: T;
  try {
    result = await fn(engine);
  } catch (err) {
    // the command's error is the one to tell: closing after it (on a full disk, say) may fail too
    await engine.close().catch(() => undefined);
    throw err;
  }
  await engine.close();
  return result;
}

/** Runs a dataset through a fresh engine on a temporary data folder and prints the metrics. */
async function evaluate(cfg: CliConfig, dir: string): Promise<void> {
  const { offtopicFrom } = cfg.flags;
  // recorded inside: an off-topic set's folder is gone once withDataset returns
  const result = await withDataset(cfg.resolvePath(dir), offtopicFrom, async (path) => {
    const run = await runEval(path, {
      engineFactory: () => createEvalEngine(cfg.engine, cfg.concurrency, cfg.models),
      ...(cfg.flags.out ? { out: cfg.flags.out } : {}),
      mode: cfg.flags.mode ?? 'lexical',
    });
    if (cfg.flags.record) process.stderr.write(`recorded ${recordEvalRun(run, cfg.argv, undefined, cfg.flags.note)}\n`);
    return run;
  });
  print(cfg.flags.json ? JSON.stringify(result.metrics) : formatMetricsTable(result));
}

async function run(cfg: CliConfig): Promise<number> {
  const { json, showSources, collection } = cfg.flags;
  const text = cfg.args.join(' ');
  switch (cfg.command) {
    case 'ingest':
      if (cfg.args.length === 0) break;
      await withEngine(cfg, (e) =>
        ingestFiles(e, collection, cfg.args.map(cfg.resolvePath), (l) => print(json ? JSON.stringify(l) : humanIngestLine(l)), {
          concurrency: cfg.concurrency,
          largestFirst: true,
        }),
      );
      return 0;
    case 'ask':
      if (!text) break;
      await withEngine(cfg, async (e) => {
        const a = await askQuestion(e, text, collection);
        print(json ? JSON.stringify(a) : humanAnswer(a, showSources));
      });
      return 0;
    case 'search':
      if (!text) break;
      await withEngine(cfg, async (e) => {
        const s = await searchQuery(e, text, collection, cfg.flags.k);
        print(json ? JSON.stringify(s) : humanSearch(s));
      });
      return 0;
    case 'status':
      await withEngine(
        cfg,
        async (e) => {
          const s = await readStatus(e);
          print(json ? JSON.stringify(s) : humanStatus(s));
        },
        { models: false },
      );
      return 0;
    case 'tables':
      if (cfg.args.length === 0) break;
      for (const file of cfg.args) {
        const capabilities = cfg.engine.parse.capabilities;
        for (const t of await tablesOf(cfg.resolvePath(file), capabilities)) print(json ? JSON.stringify(t) : humanTable(t));
      }
      return 0;
    case 'text':
      if (cfg.args.length === 0) break;
      await printTexts(cfg.args.map(cfg.resolvePath), cfg.engine.parse, cfg.concurrency, (l) =>
        print(json ? JSON.stringify(l) : humanPageText(l)),
      );
      return 0;
    case 'eval':
      if (!cfg.args[0]) break;
      await evaluate(cfg, cfg.args[0]);
      return 0;
    case 'mcp':
      await withEngine(cfg, (e) => serveMcpStdio(cfg, e));
      return 0;
    case 'invite':
      if (await runInvite(cfg, print)) return 0;
      break;
    case 'users':
    case 'tokens':
    case 'feedback':
      if (await runAccounts(cfg, print)) return 0;
      break;
    case 'backup':
    case 'restore':
    case 'verify': {
      const code = await runMaintenance(cfg, print);
      if (code !== null) return code;
      break;
    }
    case 'calibrate': {
      if (cfg.args.length === 0 || !cfg.flags.out) break;
      const file = await calibrate(cfg, cfg.args, cfg.flags.out, cfg.flags.minAnswered, (l) => process.stderr.write(`${l}\n`));
      print(json ? JSON.stringify(file) : calibrationTable(file));
      return 0;
    }
  }
  if (cfg.command === undefined) {
    print(usageText());
    return 0;
  }
  if (!COMMANDS[cfg.command]) throw new UsageError(`Unknown command '${cfg.command}'.`, undefined);
  throw new UsageError(`'pinpoint ${cfg.command}' is missing what to work on.`, cfg.command);
}

/** `--help`, `-h` and `help [command]` print the usage (exit 0) before anything is opened or configured. */
async function main(argv: string[]): Promise<number> {
  const help = helpRequest(argv);
  if (help !== null) {
    print(help);
    return 0;
  }
  return run(loadCliConfig(argv));
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  const e = toPinpointError(err);
  process.stderr.write(`pinpoint: ${e.code}: ${e.message}\n`);
  // a wrong command line shows what would have been right, and exits 2 as usage errors do
  if (err instanceof UsageError) process.stderr.write(`\n${err.usage}\n`);
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
