import { PageHeader } from '@/components/page-header.tsx';
import { SandboxPortal } from '@/features/subscription/components/sandbox-portal.tsx';

/** Sandbox mode's stand-in for Stripe's customer portal (owners; the server refuses anyone else). */
export default function SandboxBillingPortalRoute() {
  return (
    <>
      <PageHeader
        title="Billing portal (sandbox)"
        subtitle="What Stripe's customer portal and its retries would do."
      />
      <SandboxPortal />
    </>
  );
}
