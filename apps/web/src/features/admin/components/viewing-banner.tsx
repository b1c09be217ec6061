import { Alert, Button } from 'antd';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import { useBannerHeight } from '@/lib/use-banner-height.ts';

/**
 * Shown to a Switchboard administrator inside a business they are not a member of: they are helping it, every
 * change is in its audit log, and one click takes them back to the console.
 */
export function AdminViewingBanner({ businessName }: { businessName: string }) {
  const navigate = useNavigate();
  const ref = useRef<HTMLDivElement>(null);
  useBannerHeight(ref);
  return (
    <div ref={ref} data-testid="admin-banner">
      <Alert
        banner
        type="warning"
        showIcon
        title={`You are in ${businessName} as a Switchboard administrator. What you change here is recorded in its audit log.`}
        action={
          <Button size="small" type="primary" onClick={() => navigate('/admin')}>
            Exit to the admin console
          </Button>
        }
      />
    </div>
  );
}
