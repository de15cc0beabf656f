import { NavLink, Outlet } from 'react-router';

const PAGES = [
  { to: '/jobs', label: 'Jobs' },
  { to: '/pipelines', label: 'Pipelines' },
  { to: '/sources', label: 'Sources' },
  { to: '/profile', label: 'Profile' },
  { to: '/settings', label: 'Settings' },
  { to: '/operations', label: 'Operations' },
];

export function Layout() {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">jobctrl</span>
        <nav aria-label="Main">
          <ul>
            {PAGES.map((p) => (
              <li key={p.to}>
                <NavLink to={p.to}>{p.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
