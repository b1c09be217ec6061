import { Avatar, Button, Flex, Result, Skeleton, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useFormInfo } from '@/features/contact/api/get-form-info.ts';
import { ContactForm } from '@/features/contact/components/contact-form.tsx';
import { isApiError } from '@/lib/api-error.ts';
import { failureText } from '@/lib/failure-text.ts';
import { QueryProvider } from '../query-provider.tsx';

/**
 * The hosted contact page: public, without the app's chrome, in the business's name and logo. `?to=` is the
 * business's contact-form token and `?location=` the location the enquiry goes to (asked for when the
 * business has several and the link names none).
 */
export default function ContactRoute() {
  return (
    <QueryProvider>
      <ContactPage />
    </QueryProvider>
  );
}

function Card({ children }: { children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex
      component="main"
      justify="center"
      align="flex-start"
      style={{ minHeight: '100vh', padding: '48px 16px', background: token.colorBgLayout }}
    >
      <div
        style={{
          width: '100%',
          maxWidth: 520,
          boxSizing: 'border-box',
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
          padding: 'clamp(20px, 6vw, 32px)',
        }}
      >
        {children}
      </div>
    </Flex>
  );
}

function ContactPage() {
  const [params] = useSearchParams();
  const to = params.get('to');
  const requested = params.get('location');
  const info = useFormInfo(to);

  if (!to || (isApiError(info.error) && info.error.status === 404)) {
    return (
      <Card>
        <Result
          status="warning"
          title="This form is not available"
          subTitle="The link may be out of date or incomplete. Ask the business for their current contact page link."
        />
      </Card>
    );
  }
  if (info.isPending) {
    return (
      <Card>
        <Skeleton avatar active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (info.isError) {
    return (
      <Card>
        <Result
          status="error"
          title="This page could not be loaded"
          subTitle={failureText(info.error)}
          extra={<Button onClick={() => info.refetch()}>Try again</Button>}
        />
      </Card>
    );
  }

  const { business_name, logo, locations } = info.data;
  const named = requested ? locations.find((l) => l.id === requested.toLowerCase()) : undefined;
  const only = locations.length === 1 ? locations[0] : undefined;
  const location = named ?? only;
  return (
    <Card>
      <Flex align="center" gap={14} style={{ marginBottom: 12 }}>
        {logo ? (
          <img
            src={logo}
            alt={`${business_name} logo`}
            style={{ width: 56, height: 56, objectFit: 'contain', borderRadius: 8, flexShrink: 0 }}
          />
        ) : (
          <Avatar size={56} shape="square" style={{ flexShrink: 0, fontSize: 24 }} aria-hidden>
            {business_name.trim().charAt(0).toUpperCase()}
          </Avatar>
        )}
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={1} style={{ margin: 0, fontSize: 24, overflowWrap: 'anywhere' }}>
            {business_name}
          </Typography.Title>
          {location && (location.name || location.address) && (
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              {[location.name, location.address].filter(Boolean).join(' · ')}
            </Typography.Text>
          )}
        </div>
      </Flex>
      <Typography.Title level={2} style={{ fontSize: 18, margin: '8px 0 4px' }}>
        Contact us
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Send us a message and we will get back to you by email or text.
      </Typography.Paragraph>
      <ContactForm token={to} locationId={location?.id ?? null} locations={location ? [] : locations} />
    </Card>
  );
}
