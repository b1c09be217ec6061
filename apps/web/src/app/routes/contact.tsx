import { Flex, Result, Typography, theme } from 'antd';
import { useSearchParams } from 'react-router';
import { BrandMark } from '@/components/brand.tsx';
import { ContactForm } from '@/features/contact/components/contact-form.tsx';
import { QueryProvider } from '../query-provider.tsx';

/**
 * The hosted contact page: public, without the app's chrome. `?to=` is the business's contact-form token and
 * `?location=` the location the enquiry goes to.
 */
export default function ContactRoute() {
  const [params] = useSearchParams();
  const { token } = theme.useToken();
  const to = params.get('to');
  const location = params.get('location');

  return (
    <QueryProvider>
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
            background: token.colorBgContainer,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadiusLG,
            boxShadow: token.boxShadowTertiary,
            padding: 32,
          }}
        >
          {to ? (
            <>
              <Flex align="center" gap={12} style={{ marginBottom: 8 }}>
                <BrandMark />
                <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
                  Contact us
                </Typography.Title>
              </Flex>
              <Typography.Paragraph type="secondary">
                Send us a message and we will get back to you by email or text.
              </Typography.Paragraph>
              <ContactForm token={to} locationId={location} />
            </>
          ) : (
            <Result
              status="warning"
              title="This contact link is incomplete"
              subTitle="Ask the business for their contact page link."
            />
          )}
        </div>
      </Flex>
    </QueryProvider>
  );
}
