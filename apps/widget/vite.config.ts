import { defineConfig } from 'vite';

// The chat frame (served by the server at /widget, its assets at /widget/assets/*).
export default defineConfig({
  base: '/widget/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020' },
});
