import { theme } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { PayPage } from '@/features/invoices/components/pay-page.tsx';
import { QueryProvider } from '../query-provider.tsx';

/** The customer's pay page: public, without the app's chrome, phone first. */
export default function PayRoute() {
  const { secret = '' } = useParams();
  const [params] = useSearchParams();
  const { token } = theme.useToken();
  return (
    <QueryProvider>
      <main
        style={{
          minHeight: '100vh',
          display: 'flex',
          justifyContent: 'center',
          alignItems: 'flex-start',
          padding: 'clamp(0px, 4vw, 48px) clamp(0px, 3vw, 16px)',
          background: token.colorBgLayout,
          boxSizing: 'border-box',
        }}
      >
        <PayPage
          secret={secret}
          returned={params.get('paid') === '1'}
          preview={params.get('preview') === '1'}
        />
      </main>
    </QueryProvider>
  );
}
