import { useParams } from 'react-router';

export function JobDetailPage() {
  const { jobKey } = useParams();
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Job {jobKey}</h1>
    </section>
  );
}
