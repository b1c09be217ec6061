import { CheckCircleFilled, CloseCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { formatRate, sampleInvoice } from '@switchboard/shared';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  List,
  Select,
  Skeleton,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { api, type Envelope, type Page } from '@/lib/api-client.ts';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import {
  brandingPreviewPdf,
  type InvoiceBrandingDto,
  stripeConnectLink,
  useBranding,
  useResetBranding,
  useStripeAccount,
  useToggleSurcharge,
  useUpdateBranding,
  useUploadLogo,
} from '../api.ts';
import { CurrencySelect } from './currency-select.tsx';
import { InvoiceDocument } from './invoice-document.tsx';
import { TaxNumberField } from './tax-number-field.tsx';
import './invoices.css';

function State({ ok, label }: { ok: boolean; label: string }) {
  return (
    <Flex gap={6} align="center">
      {ok ? (
        <CheckCircleFilled style={{ color: '#52c41a' }} />
      ) : (
        <CloseCircleOutlined style={{ color: '#bfbfbf' }} />
      )}
      <span>
        {label}: {ok ? 'yes' : 'not yet'}
      </span>
    </Flex>
  );
}

/** Card payments through Stripe Connect: the account's state, and the way to connect it or finish its set-up. */
function StripePanel({ returned }: { returned: boolean }) {
  const account = useStripeAccount();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const connect = async () => {
    setBusy(true);
    setFailure(null);
    try {
      window.location.assign(await stripeConnectLink());
    } catch (error) {
      setFailure(failureText(error));
      setBusy(false);
    }
  };
  const a = account.data;
  return (
    <Panel title="Card payments">
      {account.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : account.isError || !a ? (
        <Alert type="error" showIcon title={failureText(account.error)} />
      ) : a.mode === 'off' ? (
        <Alert
          type="info"
          showIcon
          title="This Switchboard server takes no card payments"
          description="Its operator turns them on with a Stripe key (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET). Invoices can still be sent and downloaded."
        />
      ) : (
        <Flex vertical gap={12}>
          {a.mode === 'sandbox' && (
            <Tag color="orange" style={{ alignSelf: 'flex-start', whiteSpace: 'normal', maxWidth: '100%' }}>
              Sandbox: payments go to the sandbox payment page; no card is charged
            </Tag>
          )}
          {returned && a.connected && !a.charges_enabled && (
            <Alert type="warning" showIcon title="Stripe needs more details before you can take payments." />
          )}
          {a.connected ? (
            <Flex vertical gap={4}>
              <State ok={a.details_submitted} label="Details submitted" />
              <State ok={a.charges_enabled} label="Can take card payments" />
              <State ok={a.payouts_enabled} label="Payouts to your bank" />
            </Flex>
          ) : (
            <Typography.Paragraph style={{ margin: 0 }}>
              Connect a Stripe account and your customers pay invoices by card from the link they are sent.
              The money goes to your Stripe account.
            </Typography.Paragraph>
          )}
          {(!a.connected || !a.charges_enabled || !a.details_submitted) && (
            <Button
              type="primary"
              onClick={() => void connect()}
              loading={busy}
              style={{ alignSelf: 'flex-start' }}
            >
              {a.connected ? 'Finish setting up Stripe' : 'Connect Stripe'}
            </Button>
          )}
          {failure && <Alert type="error" showIcon title={failure} role="alert" />}
        </Flex>
      )}
    </Panel>
  );
}

type LocationRow = {
  id: string;
  name: string | null;
  card_surcharge: { enabled: boolean; rate_bps: number };
};

/** Each location's card surcharge: on or off and its rate, with the warning that rules differ. */
function SurchargePanel() {
  const locations = useQuery({
    queryKey: ['locations', 'surcharges'],
    queryFn: async () =>
      (await api.get<Envelope<Page<LocationRow>>>('/business/locations', { params: { page_size: 100 } })).data
        .body.items,
  });
  const toggle = useToggleSurcharge();
  const [rates, setRates] = useState<Record<string, number | null>>({});
  const change = async (location: LocationRow, body: { enabled?: boolean; rate?: number }) => {
    try {
      const saved = await toggle.mutateAsync({ location_id: location.id, ...body });
      notify.success(
        saved.enabled
          ? `${location.name ?? 'The location'} adds a ${formatRate(saved.rate_bps)} card surcharge to new invoices.`
          : `${location.name ?? 'The location'} adds no card surcharge.`,
      );
      await locations.refetch();
    } catch (error) {
      notify.info(failureText(error));
    }
  };
  return (
    <Panel title="Card surcharge">
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title="Surcharge rules differ by country and card"
        description="In Australia a surcharge may not be more than what card payments cost you; some card networks and places forbid or cap surcharges. Check the rules that apply to you before turning it on. Customers see it as its own line, with its rate, before they pay."
      />
      {locations.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : locations.isError ? (
        <Alert type="error" showIcon title={failureText(locations.error)} />
      ) : (
        <List
          dataSource={locations.data}
          renderItem={(l) => (
            <List.Item>
              <Flex gap={12} align="center" wrap style={{ width: '100%' }}>
                <Typography.Text strong style={{ flex: '1 1 160px' }}>
                  {l.name ?? 'Unknown Location'}
                </Typography.Text>
                <Switch
                  checked={l.card_surcharge.enabled}
                  aria-label={`Card surcharge at ${l.name ?? 'this location'}`}
                  onChange={(enabled) => void change(l, { enabled })}
                  loading={toggle.isPending && toggle.variables?.location_id === l.id}
                />
                <InputNumber
                  aria-label={`Surcharge rate at ${l.name ?? 'this location'}`}
                  min={0.01}
                  max={10}
                  precision={2}
                  suffix="%"
                  style={{ width: 110 }}
                  value={rates[l.id] ?? l.card_surcharge.rate_bps / 100}
                  onChange={(v) => setRates((r) => ({ ...r, [l.id]: v }))}
                />
                <Button
                  disabled={rates[l.id] == null || rates[l.id] === l.card_surcharge.rate_bps / 100}
                  onClick={() => void change(l, { rate: rates[l.id] ?? undefined })}
                >
                  Save rate
                </Button>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Panel>
  );
}

type BrandingValues = Omit<InvoiceBrandingDto, 'logo_url' | 'next_number' | 'fonts'>;

/** How invoices look and are numbered, and their reminders, with a live preview of the pay page. */
function BrandingPanel({ businessName }: { businessName: string }) {
  const branding = useBranding();
  const update = useUpdateBranding();
  const reset = useResetBranding();
  const upload = useUploadLogo();
  const [form] = Form.useForm<BrandingValues>();
  const watched = Form.useWatch([], form) as BrandingValues | undefined;
  const [failure, setFailure] = useState<string | null>(null);
  // Shown beside the logo button, where the person is looking when the upload is refused.
  const [logoFailure, setLogoFailure] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  useEffect(() => {
    if (branding.data) form.setFieldsValue(branding.data);
  }, [branding.data, form]);
  if (branding.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (branding.isError || !branding.data)
    return <Alert type="error" showIcon title={failureText(branding.error)} />;
  const b = branding.data;
  const save = async () => {
    setFailure(null);
    try {
      const values = await form.validateFields();
      await update.mutateAsync({
        accent_color: values.accent_color,
        font: values.font as 'noto-sans',
        footer: values.footer?.trim() || null,
        payment_terms: values.payment_terms?.trim() || null,
        tax_id: values.tax_id?.trim() || null,
        currency: values.currency,
        number_prefix: values.number_prefix,
        reminder_days_before: values.reminder_days_before ?? null,
        reminder_days_after: values.reminder_days_after ?? [],
      });
      notify.success('Invoice settings saved. New invoices and every PDF use them.');
    } catch (error) {
      if (error && typeof error === 'object' && 'errorFields' in error) return;
      if (!showFieldErrors(form, error)) setFailure(failureText(error));
    }
  };
  const openPdfPreview = async () => {
    setFailure(null);
    // Opened before the answer arrives, so the browser does not take it for an unasked pop-up.
    const tab = window.open('', '_blank');
    setPreviewing(true);
    try {
      const v = form.getFieldsValue();
      const pdf = await brandingPreviewPdf({
        accent_color: v.accent_color,
        font: v.font,
        footer: v.footer?.trim() || null,
        payment_terms: v.payment_terms?.trim() || null,
        tax_id: v.tax_id?.trim() || null,
        currency: v.currency,
        number_prefix: v.number_prefix,
      });
      const url = URL.createObjectURL(pdf);
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (error) {
      tab?.close();
      if (!showFieldErrors(form, error)) setFailure(failureText(error));
    } finally {
      setPreviewing(false);
    }
  };
  const onLogo = async (file: File | undefined) => {
    if (!file) return;
    setLogoFailure(null);
    try {
      await upload.mutateAsync(file);
      notify.success('Logo uploaded.');
    } catch (error) {
      setLogoFailure(failureText(error));
    }
  };
  const preview = sampleInvoice({ ...b, ...(watched ?? {}), logo_url: b.logo_url }, businessName, b.country);
  return (
    <div className="inv-branding">
      <Form form={form} layout="vertical" initialValues={b} requiredMark={false} style={{ minWidth: 0 }}>
        <Form.Item label="Logo (PNG or JPEG)">
          <Flex gap={8} align="center" wrap>
            {b.logo_url && (
              <img src={b.logo_url} alt="Current logo" style={{ maxHeight: 40, maxWidth: 120 }} />
            )}
            <label className="ant-btn ant-btn-default inv-file-button">
              <UploadOutlined /> {b.logo_url ? 'Replace logo' : 'Upload logo'}
              <input
                type="file"
                accept="image/png,image/jpeg"
                className="sr-only"
                onChange={(e) => {
                  void onLogo(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </label>
          </Flex>
          {logoFailure && (
            // Brought into view: the button may sit at the bottom edge of the screen.
            <div ref={(el) => el?.scrollIntoView({ block: 'nearest' })} style={{ marginTop: 8 }}>
              <Alert type="error" showIcon title={logoFailure} role="alert" />
            </div>
          )}
        </Form.Item>
        <Flex gap={16} wrap>
          <Form.Item
            name="accent_color"
            label="Accent colour"
            rules={[{ pattern: /^#[0-9a-fA-F]{6}$/, message: 'Pick a colour' }]}
          >
            <Input type="color" style={{ width: 64, padding: 2 }} aria-label="Accent colour" />
          </Form.Item>
          <Form.Item name="font" label="Font" style={{ minWidth: 180 }}>
            <Select aria-label="Font" options={b.fonts.map((f) => ({ value: f.id, label: f.name }))} />
          </Form.Item>
          <Form.Item name="currency" label="Currency" extra="New invoices are written in it">
            <CurrencySelect />
          </Form.Item>
          <Form.Item
            name="number_prefix"
            label="Number prefix"
            extra={`Next: ${watched?.number_prefix ?? b.number_prefix}${String(b.next_number).padStart(4, '0')}`}
          >
            <Input style={{ width: 110 }} maxLength={12} aria-label="Number prefix" />
          </Form.Item>
        </Flex>
        <TaxNumberField country={b.country} />
        <Form.Item name="payment_terms" label="Payment terms">
          <Input.TextArea
            maxLength={500}
            autoSize={{ minRows: 1, maxRows: 4 }}
            placeholder="e.g. Payment due within 14 days."
          />
        </Form.Item>
        <Form.Item name="footer" label="Footer">
          <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 4 }} />
        </Form.Item>
        <Typography.Title level={5}>Reminders</Typography.Title>
        <Flex gap={16} wrap>
          <Form.Item
            name="reminder_days_before"
            label="Days before the due date"
            extra="Empty: no reminder before"
          >
            <InputNumber
              min={1}
              max={60}
              style={{ width: 120 }}
              aria-label="Reminder days before the due date"
            />
          </Form.Item>
          <Form.Item
            name="reminder_days_after"
            label="Days after the due date (up to 3)"
            normalize={(v: (string | number)[]) =>
              v.map(Number).filter((n) => Number.isInteger(n) && n > 0 && n <= 90)
            }
          >
            <Select
              mode="tags"
              aria-label="Reminder days after the due date"
              style={{ minWidth: 200 }}
              options={[1, 3, 7, 14, 30].map((d) => ({ value: d, label: `${d} day${d === 1 ? '' : 's'}` }))}
              maxCount={3}
            />
          </Form.Item>
        </Flex>
        <Typography.Paragraph type="secondary">
          Reminders go in the invoice's conversation between 9:00 and 20:00 at the location, each once, until
          it is paid.
        </Typography.Paragraph>
        {failure && <Alert type="error" showIcon title={failure} role="alert" style={{ marginBottom: 12 }} />}
        <Flex gap={8} wrap>
          <Button type="primary" onClick={() => void save()} loading={update.isPending}>
            Save
          </Button>
          <Button onClick={() => void openPdfPreview()} loading={previewing}>
            Preview the PDF
          </Button>
          <Button
            onClick={() => void reset.mutateAsync().then(() => notify.success('Invoice look reset.'))}
            loading={reset.isPending}
          >
            Reset the look
          </Button>
        </Flex>
      </Form>
      <section aria-label="Preview of the pay page" className="inv-preview">
        <Typography.Text type="secondary">Preview: what your customer sees</Typography.Text>
        <InvoiceDocument invoice={preview}>
          <Button
            type="primary"
            block
            size="large"
            style={{ background: preview.branding.accent_color }}
            tabIndex={-1}
          >
            Pay $231.00
          </Button>
        </InvoiceDocument>
      </section>
    </div>
  );
}

/** Settings → Payments & invoices. */
export function PaymentsSettings({ businessName, returned }: { businessName: string; returned: boolean }) {
  return (
    <Flex vertical gap={24}>
      <StripePanel returned={returned} />
      <SurchargePanel />
      <Panel title="Invoice look, numbering and reminders">
        <BrandingPanel businessName={businessName} />
      </Panel>
    </Flex>
  );
}
