import { theme } from 'antd';
import { useParams } from 'react-router';
import { SandboxCheckout } from '@/features/invoices/components/sandbox-checkout.tsx';
import { QueryProvider } from '../query-provider.tsx';

/** Sandbox mode's payment page, where a pay link's Checkout goes when no Stripe key is set. */
export default function SandboxCheckoutRoute() {
  const { id = '' } = useParams();
  const { token } = theme.useToken();
  return (
    <QueryProvider>
      <main
        style={{
          minHeight: '100vh',
          display: 'flex',
          justifyContent: 'center',
          padding: '32px 16px',
          background: token.colorBgLayout,
          boxSizing: 'border-box',
        }}
      >
        <div
          style={{
            width: '100%',
            maxWidth: 420,
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            padding: 24,
            boxShadow: token.boxShadowTertiary,
            alignSelf: 'flex-start',
          }}
        >
          <SandboxCheckout id={id} />
        </div>
      </main>
    </QueryProvider>
  );
}
