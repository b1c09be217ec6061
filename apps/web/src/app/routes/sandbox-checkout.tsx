import { theme } from 'antd';
import { useLocation, useParams } from 'react-router';
import { SandboxCheckout } from '@/features/invoices/components/sandbox-checkout.tsx';
import { SandboxBillingCheckout } from '@/features/subscription/components/sandbox-billing.tsx';
import { QueryProvider } from '../query-provider.tsx';

/** A plan's sandbox session id carries its signed details after a dot; an invoice's is plain. */
const isPlanSession = (id: string) => id.includes('.');

/**
 * Sandbox mode's payment page, where Checkout goes when no Stripe key is set: an invoice's payment, or a plan a
 * business buys. One page for both keeps the public pages few (each is weight on every first paint).
 */
export default function SandboxCheckoutRoute() {
  const { id = '' } = useParams();
  const { search } = useLocation();
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
          {isPlanSession(id) ? (
            <SandboxBillingCheckout id={id} query={search} />
          ) : (
            <SandboxCheckout id={id} />
          )}
        </div>
      </main>
    </QueryProvider>
  );
}
