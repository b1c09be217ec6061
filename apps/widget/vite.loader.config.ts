import { defineConfig } from 'vite';

// The loader a website embeds (`/widget.js`): one classic script, no framework, no imports.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2018',
    lib: {
      entry: 'src/loader.ts',
      formats: ['iife'],
      name: 'SwitchboardWidget',
      fileName: () => 'widget.js',
    },
  },
});
