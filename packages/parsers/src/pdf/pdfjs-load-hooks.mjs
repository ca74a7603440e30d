import { readFile } from 'node:fs/promises';

/**
 * Module-loading hook for parse children: pdf.js's prebuilt bundles load as they are shipped. The
 * TypeScript loader otherwise rewrites every ES module that contains `import(` and builds a source
 * map for it; for the 2 MB pdf.js bundles that was 1.3–1.6 CPU s of every fresh child's start-up
 * (0.3 s plain). Registered after the TypeScript loader, this hook runs first.
 */
export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && url.includes('/pdfjs-dist/') && url.endsWith('.mjs')) {
    return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
  }
  return nextLoad(url, context);
}
