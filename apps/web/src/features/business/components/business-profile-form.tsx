import { isValidUrl } from '@switchboard/shared';
import { Alert, AutoComplete, Button, Divider, Form, Input, Select } from 'antd';
import { useEffect } from 'react';
import { Panel } from '@/components/panel.tsx';
import { TimezoneSelect } from '@/components/timezone-select.tsx';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { useUpdateBusiness } from '../api/update-business.ts';
import type { BusinessProfile, BusinessProfileInput } from '../types.ts';
import { BusinessLogo } from './business-logo.tsx';

const INDUSTRIES = [
  'Automotive',
  'Beauty & wellness',
  'Dental',
  'Education',
  'Fitness',
  'Hospitality',
  'Legal',
  'Medical',
  'Professional services',
  'Real estate',
  'Retail',
  'Trades',
  'Veterinary',
].map((value) => ({ value }));

type Values = {
  name: string;
  timezone: string;
  website?: string;
  site_origins?: string[];
  industry?: string;
};

/** `https://shop.example.com` for a site address as typed; null when it is not one. */
export function originOf(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return url.pathname === '/' && !url.search && !url.hash ? url.origin : null;
  } catch {
    return null;
  }
}

/** One of the other websites (`site_origins.2`) is shown under the box that holds them all. */
const profileField = (serverPath: string) => serverPath.replace(/^site_origins\.\d+$/, 'site_origins');

const orNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

export function BusinessProfileForm({
  business,
  canManage,
}: {
  business: BusinessProfile;
  canManage: boolean;
}) {
  const [form] = Form.useForm<Values>();
  const update = useUpdateBusiness();

  useEffect(() => {
    form.setFieldsValue({
      name: business.name,
      timezone: business.timezone,
      website: business.website ?? '',
      site_origins: business.site_origins,
      industry: business.industry ?? '',
    });
  }, [business, form]);

  const submit = (values: Values) => {
    const input: BusinessProfileInput = {
      name: values.name.trim(),
      timezone: values.timezone,
      website: orNull(values.website),
      site_origins: (values.site_origins ?? []).map((v) => originOf(v) ?? v),
      industry: orNull(values.industry),
    };
    update.mutate(input, {
      onSuccess: () => notify.success('Business profile saved'),
      onError: (error) => void showFieldErrors(form, error, profileField),
    });
  };

  return (
    <Panel>
      {!canManage && (
        <Alert
          type="info"
          showIcon
          title="Only the business owner can change the business profile."
          style={{ marginBottom: 24 }}
        />
      )}
      <BusinessLogo name={business.name} image={business.image} canManage={canManage} />
      <Divider />
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        disabled={!canManage || update.isPending}
        style={{ maxWidth: 560 }}
      >
        <Form.Item
          label="Business name"
          name="name"
          rules={[{ required: true, whitespace: true }, { max: 200 }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          label="Time zone"
          name="timezone"
          rules={[{ required: true }]}
          extra="Used for business hours, reports and the next business day in message templates."
        >
          <TimezoneSelect />
        </Form.Item>
        <Form.Item
          label="Website"
          name="website"
          rules={[
            {
              validator: (_, value: string | undefined) =>
                !value?.trim() || isValidUrl(value.trim())
                  ? Promise.resolve()
                  : Promise.reject(new Error('Website is not a valid url, such as https://example.com')),
            },
          ]}
        >
          <Input placeholder="https://example.com" inputMode="url" />
        </Form.Item>
        <Form.Item
          label="Other websites"
          name="site_origins"
          extra="Your web forms may send visitors back to a page of your website, or of these sites, after they submit. Type each address and press Enter."
          rules={[
            {
              validator: (_, values: string[] | undefined) => {
                const bad = (values ?? []).find((v) => !originOf(v));
                return bad
                  ? Promise.reject(
                      new Error(`${bad} is not a website address such as https://shop.example.com`),
                    )
                  : Promise.resolve();
              },
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            suffixIcon={null}
            tokenSeparators={[',', ' ']}
            placeholder="https://shop.example.com"
            aria-label="Other websites"
          />
        </Form.Item>
        <Form.Item label="Industry" name="industry" rules={[{ max: 100 }]}>
          <AutoComplete
            options={INDUSTRIES}
            placeholder="Choose or type your industry"
            filterOption={(input, option) =>
              option?.value.toLowerCase().includes(input.toLowerCase()) ?? false
            }
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            Save changes
          </Button>
        </Form.Item>
      </Form>
    </Panel>
  );
}
