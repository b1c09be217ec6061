type Navigate = (to: string) => void;

let navigate: Navigate | null = null;

/** The router registers itself so code outside React (the API client) can move the person elsewhere. */
export function setNavigator(fn: Navigate | null): void {
  navigate = fn;
}

export function navigateTo(to: string): void {
  if (navigate) navigate(to);
  else window.location.assign(to);
}
