import { describe, expect, it } from 'vitest';
import { customerCalled } from './customer-name.ts';

describe('customerCalled', () => {
  it('is the name, else the phone, else the email, else what the caller says', () => {
    expect(customerCalled({ name: 'Ana', phone: '+61491570156', email: 'a@x.test' }, 'A customer')).toBe(
      'Ana',
    );
    expect(customerCalled({ name: null, phone: '+61491570156', email: 'a@x.test' }, 'A customer')).toBe(
      '+61491570156',
    );
    expect(customerCalled({ name: '', phone: null, email: 'a@x.test' }, 'A customer')).toBe('a@x.test');
    expect(customerCalled({ name: null, phone: null, email: null }, 'a customer')).toBe('a customer');
    expect(customerCalled(undefined, 'A customer')).toBe('A customer');
  });
});
