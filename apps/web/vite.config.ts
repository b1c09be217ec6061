import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API_TARGET = 'http://127.0.0.1:3000';

// Vendor code changes far less often than ours, so it gets its own long-cached chunks. antd is split in
// two: what the first paint needs (theme, ConfigProvider, notices) and, separately, whatever components
// the lazy routes pull in, so the login page does not download the settings pages' tables and uploads.
const VENDOR_GROUPS = [
  {
    name: 'react-vendor',
    test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
    priority: 30,
  },
  // The query cache only: @tanstack/react-virtual is the inbox's alone and stays in the inbox's chunk.
  {
    name: 'query-vendor',
    test: /[\\/]node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/,
    priority: 20,
  },
  {
    name: 'antd-core',
    test: /[\\/]node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+|@emotion|stylis|dayjs)[\\/]/,
    tags: ['$initial' as const],
    priority: 10,
  },
];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/socket.io': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    manifest: true,
    modulePreload: {
      // The login page opens sign-up and the email confirmation in its own frame. Listing their chunks' files in
      // the login page (so the browser could fetch them early) would weigh more than the page may (DESIGN §10):
      // they load by their own imports when opened.
      resolveDependencies: (filename, deps, { hostType }) =>
        hostType === 'js' &&
        /(^|\/)(account-panel|subscription|sandbox-billing-portal)-[\w-]+\.js$/.test(filename)
          ? []
          : deps,
    },
    rolldownOptions: {
      // The shared package's modules are pure apart from what their exports need, so an unused module (a zod
      // contract the web app never imports) is dropped instead of dragging zod into the login page.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]shared[\\/]/.test(id) },
      output: {
        codeSplitting: { groups: VENDOR_GROUPS },
      },
    },
  },
});
