import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into the console module's jar (META-INF/resources/console), which api-server serves at
// /console. The dev server proxies the API to a service running on :8080.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: process.env.CONSOLE_OUT_DIR || 'dist',
    emptyOutDir: true,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 600,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
