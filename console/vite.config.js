import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress, scriptBudget } from './build/plugins.js';

// Built into the console module's jar (META-INF/resources/console), which api-server serves at
// /console. The dev server proxies the API to a service running on :8080. The build fails when
// the scripts outgrow their budget (build/plugins.js), and writes each file compressed beside it.
export default defineConfig({
  base: '/console/',
  plugins: [react(), scriptBudget(), precompress()],
  build: {
    outDir: process.env.CONSOLE_OUT_DIR || 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.js'],
    include: ['test/**/*.test.{js,jsx}'],
    css: false,
    // a cap, not a wait: a test that types into a field takes seconds on a loaded machine
    testTimeout: 60_000,
  },
});
