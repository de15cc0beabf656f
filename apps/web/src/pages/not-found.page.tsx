import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Page not found</h1>
      <p>
        There is no page here. <Link to="/jobs">Go to the jobs</Link>.
      </p>
    </section>
  );
}
