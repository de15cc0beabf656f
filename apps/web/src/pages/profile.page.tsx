// Profile: the facts scoring, tailoring and letters work from (GET/PUT /v1/profile). A save that
// changed something starts a Score → Tailor → Cover batch; the page names it and links to Pipelines.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, type Schemas } from '../api/client';
import { asApiError, toApiError, type ApiError } from '../api/http';
import { useApi } from '../api/use-api';
import { Page } from '../components/page';
import { Empty, ErrorBanner, Loading } from '../components/states';
import { ProfileForm } from '../components/profile/profile-form';
import { fromDraft, toDraft, type ProfileDraft } from '../components/profile/profile-draft';

type Saved = Schemas['ProfileView'];

function SavedNotice({ saved }: { saved: Saved }) {
  return (
    <div className="notice" role="status">
      Saved revision {saved.revision}.{' '}
      {saved.batch ? (
        <>
          Preparation batch <code>{saved.batch.runId}</code> started (score → tailor → cover): follow it on <Link to="/pipelines">Pipelines</Link>.
        </>
      ) : (
        'Nothing changed, so no batch was started.'
      )}
    </div>
  );
}

export function ProfilePage() {
  const profile = useApi((signal) => api.get('/v1/profile', { signal }), []);
  const [draft, setDraft] = useState<ProfileDraft | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<Saved | null>(null);

  // The form starts from the stored profile once; later reloads never overwrite what is being typed.
  useEffect(() => {
    if (profile.state === 'ok' && draft === null) setDraft(toDraft(profile.data));
  }, [profile.state, profile.data, draft]);

  async function save() {
    if (!draft) return;
    const { body, errors } = fromDraft(draft);
    if (errors.length > 0) {
      setError(toApiError(400, { message: 'Some fields are not valid', errors }));
      return;
    }
    setSaving(true);
    setError(null);
    setSaved(null);
    try {
      setSaved(await api.put('/v1/profile', { body }));
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Page title="Profile">
      {profile.state === 'error' && <ErrorBanner error={profile.error} onRetry={profile.reload} />}
      {draft === null ? (
        profile.state === 'loading' && <Loading what="the profile" />
      ) : (
        <>
          {profile.data?.revision === 0 && !saved && (
            <Empty>No profile yet. Fill in at least your name and email, then save: scoring and letters work from it.</Empty>
          )}
          {error && <ErrorBanner error={error} />}
          <ProfileForm draft={draft} set={(change) => setDraft((d) => (d ? { ...d, ...change } : d))} error={error} saving={saving} onSubmit={() => void save()} />
          {/* Beside the save button, where the user is when the answer comes. */}
          {saved && <SavedNotice saved={saved} />}
        </>
      )}
    </Page>
  );
}
