import { useOutletContext } from 'react-router';
import type { CurrentSelection } from '@/features/auth/utils/selection.ts';

/** The signed-in user's business and location, as the app layout loaded them for the page it renders. */
export function useAppSelection(): CurrentSelection {
  return useOutletContext<CurrentSelection>();
}
