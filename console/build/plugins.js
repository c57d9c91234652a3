// Build steps of the console beyond Vite's own: the files compressed ahead of time for the
// api-server to send as they are asked for, and the budget of the scripts a first visit downloads.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The most gzipped JavaScript a first visit may download. */
export const SCRIPT_BUDGET_BYTES = 200 * 1024;

/** What is worth compressing: text, over a kilobyte. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Writes name.br and name.gz beside each text file of the build, at the best compression: the
 * api-server sends the one the browser accepts (Spring's EncodedResourceResolver), so no request
 * pays for compressing.
 */
export function precompress() {
  let outDir;
  return {
    name: 'crmflow-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/** The gzipped size of each script chunk of a bundle: [{fileName, bytes}]. */
export function scriptSizes(bundle) {
  return Object.values(bundle)
    .filter((chunk) => chunk.type === 'chunk' && chunk.fileName.endsWith('.js'))
    .map((chunk) => ({ fileName: chunk.fileName, bytes: gzipSync(chunk.code, { level: 9 }).length }));
}

/** Fails the build when the scripts, gzipped, weigh more than the budget. */
export function scriptBudget(limit = SCRIPT_BUDGET_BYTES) {
  return {
    name: 'crmflow-script-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const sizes = scriptSizes(bundle);
      const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
      const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
      const list = sizes.map((s) => `${s.fileName} ${kb(s.bytes)}`).join(', ');
      if (total > limit) {
        this.error(`the console's scripts are ${kb(total)} gzipped, over the budget of ${kb(limit)}: ${list}`);
      }
      this.info?.(`scripts ${kb(total)} gzipped of a ${kb(limit)} budget`);
    },
  };
}
