export function JobsPage() {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Jobs</h1>
    </section>
  );
}
