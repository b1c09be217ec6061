import { useSearchParams } from 'react-router';
import { ErrorReportModal } from '@/features/feedback/components/error-report-modal.tsx';
import { QueryProvider } from './query-provider.tsx';

const REPORT_PARAMS = ['mode', 'error_code', 'debug_code'];

/** Opened by the 'Send Feedback' button's reload (?mode=report-error); closing it tidies the address. */
export default function ErrorReport() {
  const [params, setParams] = useSearchParams();
  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of REPORT_PARAMS) next.delete(name);
        return next;
      },
      { replace: true },
    );

  return (
    <QueryProvider>
      <ErrorReportModal
        errorCode={params.get('error_code') ?? ''}
        debugCode={params.get('debug_code') ?? ''}
        path={window.location.pathname}
        onClose={close}
      />
    </QueryProvider>
  );
}
