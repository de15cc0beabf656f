// Routes: one file per page under pages/ so each page can be built on its own.
import { Navigate, Route, Routes } from 'react-router';
import { Layout } from './components/layout';
import { JobsPage } from './pages/jobs.page';
import { JobDetailPage } from './pages/job-detail.page';
import { PipelinesPage } from './pages/pipelines.page';
import { SourcesPage } from './pages/sources.page';
import { ProfilePage } from './pages/profile.page';
import { SettingsPage } from './pages/settings.page';
import { OperationsPage } from './pages/operations.page';
import { NotFoundPage } from './pages/not-found.page';

export function App() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/jobs" replace />} />
        <Route path="jobs" element={<JobsPage />} />
        <Route path="jobs/:jobKey" element={<JobDetailPage />} />
        <Route path="pipelines" element={<PipelinesPage />} />
        <Route path="sources" element={<SourcesPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="settings/*" element={<SettingsPage />} />
        <Route path="operations" element={<OperationsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
