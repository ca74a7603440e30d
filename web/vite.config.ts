import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_DATA = ['cmaps', 'standard_fonts', 'wasm'];

/**
 * pdf.js needs its CMaps (CJK fonts that are not embedded), standard fonts and wasm decoders as
 * plain files next to the app: emitted under /pdfjs/ at build time, served from node_modules in dev.
 */
function pdfjsData(): Plugin {
  return {
    name: 'pinpoint-pdfjs-data',
    generateBundle() {
      for (const dir of PDFJS_DATA) {
        for (const file of readdirSync(join(pdfjsRoot, dir))) {
          this.emitFile({ type: 'asset', fileName: `pdfjs/${dir}/${file}`, source: readFileSync(join(pdfjsRoot, dir, file)) });
        }
      }
    },
    configureServer(server) {
      server.middlewares.use('/pdfjs', (req, res, next) => {
        const [dir, file] = (req.url ?? '').split('?')[0]?.split('/').filter(Boolean) ?? [];
        if (!dir || !file || !PDFJS_DATA.includes(dir) || file.includes('..')) return next();
        try {
          res.end(readFileSync(join(pdfjsRoot, dir, file)));
        } catch {
          next();
        }
      });
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), pdfjsData()],
  resolve: { conditions: ['source'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The app runs under script-src 'self': no inline module-preload polyfill.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
