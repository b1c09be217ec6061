// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Form, type FormInstance, Input } from 'antd';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { showFieldErrors } from './form-errors.ts';

afterEach(cleanup);

beforeAll(() => {
  // jsdom lays nothing out; antd asks for these when it scrolls to a field and sizes a text area.
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }) as unknown as MediaQueryList;
  Element.prototype.scrollIntoView ??= () => {};
});

const refused = (fields: Record<string, string>, status = 400) =>
  new ApiError({
    status,
    code: status === 400 ? 'validation_failed' : 'conflict',
    message: 'From the server.',
    fields,
    requestId: 'req-1',
    notified: true,
  });

function Harness({ onForm }: { onForm: (form: FormInstance) => void }) {
  const [form] = Form.useForm();
  onForm(form);
  return (
    <Form form={form}>
      <Form.Item name="review_link" label="Review link">
        <Input />
      </Form.Item>
      <Form.Item name={['items', 0, 'unit_price']} label="Price">
        <Input />
      </Form.Item>
    </Form>
  );
}

function renderForm(): FormInstance {
  let instance: FormInstance | null = null;
  render(<Harness onForm={(form) => (instance = form)} />);
  if (!instance) throw new Error('the form did not render');
  return instance;
}

describe('showFieldErrors', () => {
  it('puts each refused field’s words under that field and says all were placed', async () => {
    const form = renderForm();
    let placed = false;
    await act(async () => {
      placed = showFieldErrors(
        form,
        refused({ review_link: 'Give the review link as an https:// address.' }),
      );
    });
    expect(placed).toBe(true);
    expect(await screen.findByText('Give the review link as an https:// address.')).toBeTruthy();
    expect(form.getFieldError('review_link')).toEqual(['Give the review link as an https:// address.']);
  });

  it('maps a server path to the form’s own name for it', async () => {
    const form = renderForm();
    let placed = false;
    await act(async () => {
      placed = showFieldErrors(form, refused({ 'items.0.unit_price_cents': 'Give prices in whole cents.' }), {
        'items.0.unit_price_cents': ['items', 0, 'unit_price'],
      });
    });
    expect(placed).toBe(true);
    expect(form.getFieldError(['items', 0, 'unit_price'])).toEqual(['Give prices in whole cents.']);
  });

  it('reads a mapping function’s dotted answer as a path, and leaves a field it maps to null for the message', async () => {
    const form = renderForm();
    let placed = true;
    await act(async () => {
      placed = showFieldErrors(
        form,
        refused({
          'items.0.unit_price_cents': 'Give prices in whole cents.',
          location_id: 'Choose a location',
        }),
        (path) => (path === 'location_id' ? null : path.replace(/_cents$/, '')),
      );
    });
    expect(placed).toBe(false);
    expect(form.getFieldError(['items', 0, 'unit_price'])).toEqual(['Give prices in whole cents.']);
  });

  it('places another refusal about one field too (a 409 naming it)', async () => {
    const form = renderForm();
    await act(async () => {
      showFieldErrors(form, refused({ review_link: 'Already used.' }, 409));
    });
    expect(form.getFieldError('review_link')).toEqual(['Already used.']);
  });

  it('says so when a field is not on the form, so the caller shows the whole message', async () => {
    const form = renderForm();
    let placed = true;
    await act(async () => {
      placed = showFieldErrors(
        form,
        refused({ review_link: 'Give the review link as an https:// address.', colour: 'Pick a colour' }),
      );
    });
    expect(placed).toBe(false);
    expect(form.getFieldError('review_link')).toEqual(['Give the review link as an https:// address.']);
  });

  it('places nothing for a failure without fields, or one that is not the server’s', () => {
    const form = renderForm();
    expect(showFieldErrors(form, refused({}))).toBe(false);
    expect(
      showFieldErrors(
        form,
        new ApiError({ status: 500, message: 'internal', requestId: 'r', notified: true }),
      ),
    ).toBe(false);
    expect(showFieldErrors(form, new Error('boom'))).toBe(false);
    expect(form.getFieldsError().every((f) => f.errors.length === 0)).toBe(true);
  });
});
