import type { ReactNode } from 'react';

/** A page's frame: its heading (the section's accessible name) and an optional toolbar beside it. */
export function Page({ title, actions, children }: { title: ReactNode; actions?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby="page-title" className="page">
      <div className="page-head">
        <h1 id="page-title">{title}</h1>
        {actions}
      </div>
      {children}
    </section>
  );
}
