/** "'Error Code: 400-{request id}' (or Unknown)", shown on the generic error notice. */
export function errorCode(requestId?: string | null): string {
  const id = requestId?.trim();
  return `Error Code: 400-${id ? id : 'Unknown'}`;
}
