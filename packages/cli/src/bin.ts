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
import { serveMcpStdio } from './mcp.js';
import { askQuestion, humanAnswer, humanSearch, searchQuery } from './query.js';
import { humanStatus, readStatus } from './status.js';

const USAGE = `pinpoint — ask your files, get answers that point at the exact place

  pinpoint ingest <files…> [--json] [--collection NAME]
  pinpoint ask "question" [--show-sources] [--json] [--collection NAME]
  pinpoint search "query" [--json] [--k N] [--collection NAME]
  pinpoint status [--json]
  pinpoint eval <dataset-dir> [--out run.json] [--record] [--mode MODE] [--offtopic-from OTHER-DIR]
  pinpoint calibrate <dataset-dir…> --out gate.json [--mode MODE] [--min-answered 0.91] [--offtopic BASE=OTHER …] [--floor SET=0.8 …]
  pinpoint mcp                      (MCP server on stdin/stdout for agents; see README)
  pinpoint users add EMAIL [--admin] --password-stdin | users list | users remove EMAIL
  pinpoint tokens create EMAIL [--name N] [--json] | tokens revoke ID
  pinpoint feedback export          (judged answers as eval questions.jsonl, to stdout)

  --data-dir DIR (or PINPOINT_DATA_DIR, default ./data) is the data folder the server uses too.`;

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
  try {
    return await fn(engine);
  } finally {
    await engine.close();
  }
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
    if (cfg.flags.record) process.stderr.write(`recorded ${recordEvalRun(run, cfg.argv)}\n`);
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
    case 'eval':
      if (!cfg.args[0]) break;
      await evaluate(cfg, cfg.args[0]);
      return 0;
    case 'mcp':
      await withEngine(cfg, (e) => serveMcpStdio(cfg, e));
      return 0;
    case 'users':
    case 'tokens':
    case 'feedback':
      if (await runAccounts(cfg, print)) return 0;
      break;
    case 'calibrate': {
      if (cfg.args.length === 0 || !cfg.flags.out) break;
      const file = await calibrate(cfg, cfg.args, cfg.flags.out, cfg.flags.minAnswered, (l) => process.stderr.write(`${l}\n`));
      print(json ? JSON.stringify(file) : calibrationTable(file));
      return 0;
    }
  }
  print(USAGE);
  return cfg.command === undefined || cfg.command === 'help' ? 0 : 2;
}

try {
  process.exitCode = await run(loadCliConfig());
} catch (err) {
  const e = toPinpointError(err);
  process.stderr.write(`pinpoint: ${e.code}: ${e.message}\n`);
  process.exitCode = 1;
}
