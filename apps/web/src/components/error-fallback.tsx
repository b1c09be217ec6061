import { Button, Result } from 'antd';

/** A new deploy replaced the chunk this tab asked for; a reload fetches the current ones. */
function isStaleChunk(error: Error): boolean {
  return /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
    error.message,
  );
}

/** What a page that failed to render shows instead (loaded only when that happens). */
export default function ErrorFallback({ error }: { error: Error }) {
  const stale = isStaleChunk(error);
  return (
    <Result
      status={stale ? 'info' : 'error'}
      title={stale ? 'A new version of Switchboard is ready' : 'This page ran into a problem'}
      subTitle={
        stale
          ? 'Reload to get it; nothing you saved is lost.'
          : 'Our engineers have been notified. Reloading the page usually gets you going again.'
      }
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          Reload
        </Button>
      }
      style={{ paddingTop: '10vh' }}
    />
  );
}
