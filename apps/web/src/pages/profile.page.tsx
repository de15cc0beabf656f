import { Page } from '../components/page';
import { Empty } from '../components/states';

// Stub for issue #13: the routes this page uses are listed at /v1/docs.
export const ProfilePage = () => (
  <Page title="Profile">
    <Empty>Not built yet.</Empty>
  </Page>
);
