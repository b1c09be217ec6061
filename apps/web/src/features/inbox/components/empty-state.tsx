import type { ReactNode } from 'react';

/** A plain, honest explanation where there is nothing to show, with what to do about it if anything. */
export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="ib-empty" role="status">
      <span className="ib-empty-icon" aria-hidden="true">
        {icon}
      </span>
      <h2>{title}</h2>
      {children && <p>{children}</p>}
      {action}
    </div>
  );
}
