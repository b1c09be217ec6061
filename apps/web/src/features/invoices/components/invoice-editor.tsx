import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  chargeStep,
  formatRate,
  INVOICE_MAX_CENTS,
  invoiceTotals,
  minorUnits,
  toMajorUnits,
  toMinorUnits,
} from '@switchboard/shared';
import { Alert, Button, Checkbox, Flex, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { type InvoiceJson, useCreateInvoice, useSendInvoice, useUpdateInvoice } from '../api.ts';
import { CurrencySelect } from './currency-select.tsx';
import './invoices.css';
import { moneyText } from '@/lib/money.ts';

type Item = { description: string; quantity: number | null; price: number | null; tax_rate: number | null };
type Values = {
  bill_to: string;
  currency: string;
  items: Item[];
  due_date: string;
  notes: string;
  close_on_paid: boolean;
};

type Props = {
  open: boolean;
  onClose: () => void;
  /** A new invoice for a conversation's customer… */
  enquiryId?: string;
  customerName?: string | null;
  /** …or the invoice to change (not yet paid). */
  invoice?: InvoiceJson | null;
  /** The business's currency, which a new invoice starts in. */
  currency: string;
  /** The card surcharge the location adds (basis points; 0: none), for the totals shown while writing. */
  surchargeBps: number;
  defaultTaxRate?: number;
  onDone?: (invoice: InvoiceJson) => void;
};

/** The server prices a line in minor units; the form holds the price in the currency's own units. */
const formField = (serverPath: string) => serverPath.replace(/\.unit_price_cents$/, '.price');

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Writes an invoice: who it is for, its currency (ISO 4217), its lines (quantity, price in the currency's
 * decimals, tax rate), when it is due and a note, with the totals worked out as the server will (to the
 * currency's minor unit, the surcharge as its own line). Saved as a draft, or sent at once in the conversation
 * with its pay link.
 */
export function InvoiceEditor(props: Props) {
  const { open, onClose, invoice, currency, surchargeBps } = props;
  const [form] = Form.useForm<Values>();
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateInvoice();
  const update = useUpdateInvoice();
  const send = useSendInvoice();
  const items = Form.useWatch('items', form) ?? [];
  const chosen: string = Form.useWatch('currency', form) ?? invoice?.currency ?? currency;
  const lines = items.map((i) => ({
    quantity: i?.quantity ?? 0,
    unit_price_cents: toMinorUnits(i?.price ?? 0, chosen),
    tax_rate: i?.tax_rate ?? 0,
  }));
  const totals = invoiceTotals(lines, invoice ? invoice.surcharge_bps : surchargeBps, chargeStep(chosen));
  const money = (minor: number) => moneyText(minor, chosen);
  const busy = create.isPending || update.isPending || send.isPending;

  const initial: Values = invoice
    ? {
        bill_to: invoice.bill_to ?? '',
        currency: invoice.currency,
        items: invoice.items.map((i) => ({
          description: i.description,
          quantity: i.quantity,
          price: toMajorUnits(i.unit_price_cents, invoice.currency),
          tax_rate: i.tax_rate,
        })),
        due_date: invoice.due_date ?? '',
        notes: invoice.notes ?? '',
        close_on_paid: invoice.close_on_paid,
      }
    : {
        bill_to: props.customerName ?? '',
        currency,
        items: [{ description: '', quantity: 1, price: null, tax_rate: props.defaultTaxRate ?? 10 }],
        due_date: inDays(14),
        notes: '',
        close_on_paid: false,
      };

  const save = async (andSend: boolean) => {
    setFailure(null);
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body = {
      bill_to: values.bill_to.trim() || undefined,
      currency: values.currency,
      items: values.items.map((i) => ({
        description: i.description.trim(),
        quantity: i.quantity ?? 1,
        unit_price_cents: toMinorUnits(i.price ?? 0, values.currency),
        tax_rate: i.tax_rate ?? 0,
      })),
      due_date: values.due_date || null,
      notes: values.notes.trim() || null,
    };
    try {
      let saved = invoice
        ? await update.mutateAsync({ id: invoice.id, ...body })
        : await create.mutateAsync({ enquiry_id: props.enquiryId, ...body });
      if (andSend) {
        saved = await send.mutateAsync({ id: saved.id, close_on_paid: values.close_on_paid });
        notify.success(`${saved.number} sent with its pay link.`);
      } else notify.success(`${saved.number} saved as a draft.`);
      props.onDone?.(saved);
      onClose();
    } catch (error) {
      if (!showFieldErrors(form, error, formField)) setFailure(failureText(error));
    }
  };

  return (
    <Modal
      open={open}
      title={invoice ? `Edit ${invoice.number}` : 'New invoice'}
      onCancel={onClose}
      destroyOnHidden
      width={720}
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={() => void save(false)} loading={busy && !send.isPending} disabled={busy}>
            Save draft
          </Button>
          <Button type="primary" onClick={() => void save(true)} loading={send.isPending} disabled={busy}>
            {invoice && invoice.status !== 'draft' ? 'Save and send again' : 'Send'}
          </Button>
        </Flex>
      }
    >
      <Form form={form} layout="vertical" initialValues={initial} requiredMark={false} className="inv-editor">
        <Flex gap={16} wrap className="inv-editor-head">
          <Form.Item name="bill_to" label="Bill to" rules={[{ max: 200 }]} style={{ flex: '1 1 240px' }}>
            <Input placeholder="The customer's name" />
          </Form.Item>
          <Form.Item name="currency" label="Currency" style={{ flex: '0 1 240px', minWidth: 0 }}>
            <CurrencySelect width="100%" />
          </Form.Item>
        </Flex>
        <Form.List name="items">
          {(fields, { add, remove }) => (
            <ul className="inv-items" aria-label="Items">
              {fields.map((field, index) => (
                <li className="inv-item" key={field.key}>
                  <Form.Item
                    name={[field.name, 'description']}
                    label="Item"
                    className="inv-item-desc"
                    rules={[{ required: true, whitespace: true, message: 'Describe the item' }, { max: 500 }]}
                  >
                    <Input placeholder="What it is for" aria-label={`Description of item ${index + 1}`} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'quantity']}
                    label="Qty"
                    className="inv-item-qty"
                    rules={[{ required: true, message: 'How many' }]}
                  >
                    <InputNumber min={0.001} max={1_000_000} aria-label={`Quantity of item ${index + 1}`} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'price']}
                    label="Price"
                    className="inv-item-price"
                    rules={[{ required: true, message: 'A price' }]}
                  >
                    <InputNumber
                      min={0}
                      max={toMajorUnits(INVOICE_MAX_CENTS, chosen)}
                      precision={minorUnits(chosen)}
                      prefix={chosen}
                      aria-label={`Price of item ${index + 1}`}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'tax_rate']} label="Tax %" className="inv-item-tax">
                    <InputNumber min={0} max={100} aria-label={`Tax rate of item ${index + 1}`} />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={`Remove item ${index + 1}`}
                    disabled={fields.length === 1}
                    onClick={() => remove(field.name)}
                    className="inv-item-remove"
                  />
                </li>
              ))}
              <li>
                <Button
                  icon={<PlusOutlined />}
                  onClick={() =>
                    add({ description: '', quantity: 1, price: null, tax_rate: props.defaultTaxRate ?? 10 })
                  }
                  disabled={fields.length >= 100}
                >
                  Add item
                </Button>
              </li>
            </ul>
          )}
        </Form.List>
        <dl className="inv-totals" aria-label="Totals">
          <dt>Subtotal</dt>
          <dd>{money(totals.subtotal_cents)}</dd>
          <dt>Tax</dt>
          <dd>{money(totals.tax_cents)}</dd>
          {totals.surcharge_cents > 0 && (
            <>
              <dt>Card surcharge ({formatRate(invoice ? invoice.surcharge_bps : surchargeBps)})</dt>
              <dd>{money(totals.surcharge_cents)}</dd>
            </>
          )}
          <dt className="inv-total">Total</dt>
          <dd className="inv-total">{money(totals.total_cents)}</dd>
        </dl>
        <Flex gap={16} wrap>
          <Form.Item name="due_date" label="Due" style={{ minWidth: 180 }}>
            <Input type="date" aria-label="Due date" />
          </Form.Item>
          <Form.Item name="close_on_paid" valuePropName="checked" label=" " colon={false}>
            <Checkbox>Close the conversation when it is paid</Checkbox>
          </Form.Item>
        </Flex>
        <Form.Item name="notes" label="Note to the customer" rules={[{ max: 2000 }]}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 5 }}
            placeholder="Shown on the invoice and the pay page"
          />
        </Form.Item>
        {failure && <Alert type="error" showIcon title={failure} role="alert" />}
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          Sending texts the customer the invoice with a link to pay by card, in this conversation.
        </Typography.Paragraph>
      </Form>
    </Modal>
  );
}
