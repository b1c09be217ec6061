import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

/**
 * Every `@ant-design/icons` icon (ours and antd's own) draws through `AntdIcon` or `AntdIconLight`, which label it
 * with the drawing's name ("check-circle") for screen readers. The icons' imports of those two are resolved to
 * stand-ins (`src/lib/decorative-icon.tsx`) that hide an icon from screen readers unless it is given a name, so
 * a button reads "Close", not "check-circle Close", without every icon in the app having to say so.
 */
function decorativeIcons(): Plugin {
  const standIns = new URL('./src/lib/decorative-icon.tsx', import.meta.url).pathname;
  const exported: Record<string, string> = {
    AntdIcon: 'DecorativeIcon',
    AntdIconLight: 'DecorativeIconLight',
  };
  const fromIcons = /[\\/]@ant-design[\\/]icons[\\/]es[\\/]icons[\\/]/;
  return {
    name: 'decorative-icons',
    enforce: 'pre',
    resolveId(source, importer) {
      const name = /^\.\.\/components\/(AntdIcon|AntdIconLight)(?:\.js)?$/.exec(source)?.[1];
      if (!name || !importer || !fromIcons.test(importer)) return null;
      return `\0decorative-icon:${exported[name]}`;
    },
    load(id) {
      const name = /^\0decorative-icon:(\w+)$/.exec(id)?.[1];
      return name ? `export { ${name} as default } from ${JSON.stringify(standIns)};` : null;
    },
  };
}

export default defineConfig({
  plugins: [decorativeIcons(), react()],
  // The dev server's pre-bundled dependencies (antd and the icons) go through the same stand-ins.
  optimizeDeps: { rolldownOptions: { plugins: [decorativeIcons()] } },
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
