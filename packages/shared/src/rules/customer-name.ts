/** What a customer is called where a person reads it: their name, else their phone, else their email. */
export function customerCalled(
  customer: { name: string | null; phone: string | null; email: string | null } | undefined,
  otherwise: string,
): string {
  return customer?.name || customer?.phone || customer?.email || otherwise;
}
