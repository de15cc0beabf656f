import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { ProfileRepository, type Profile, type StoredProfile } from '@jobctrl/shared/profile';
import { PipelineRunService } from '../pipeline-run.service';

/** The profile document itself, with its revision and update time beside its fields. */
export type ProfileDocument = Profile & { revision: number; updatedAt: string };

export interface ProfileView extends ProfileDocument {
  /** The automatic Score → Tailor → Cover batch this update started (null when the content did not change or none could start). */
  batch: { runId: string; workflowId: string } | null;
}

/**
 * GET/PUT /v1/profile. A saved profile is never lost to a Temporal outage: the batch start is best
 * effort, and the idle preparation recovery also re-scores jobs scored against an older revision.
 */
@Injectable()
export class ProfileService {
  private readonly log = new Logger(ProfileService.name);
  private readonly profiles: ProfileRepository;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(PipelineRunService) private readonly runs: PipelineRunService,
  ) {
    this.profiles = new ProfileRepository(uow);
  }

  async get(): Promise<ProfileDocument> {
    return documentOf(await this.profiles.get());
  }

  async put(profile: Profile): Promise<ProfileView> {
    // A document read back from GET may carry revision and updatedAt: they are not part of the profile.
    const { revision: _revision, updatedAt: _updatedAt, ...fields } = profile as ProfileDocument;
    const { changed, ...stored } = await this.profiles.put(toPlain(fields));
    let batch: ProfileView['batch'] = null;
    // The same content keeps its revision: there is nothing to re-prepare.
    if (!changed) return { ...documentOf(stored), batch };
    try {
      batch = await this.runs.startRun({ stages: ['score', 'tailor', 'cover'], scope: 'profile_update', profileRevision: stored.revision });
    } catch (err) {
      this.log.warn(`profile revision ${stored.revision} saved; its preparation batch did not start (${(err as Error).message}); idle recovery will pick it up`);
    }
    return { ...documentOf(stored), batch };
  }
}

function documentOf(stored: StoredProfile): ProfileDocument {
  return { ...stored.profile, revision: stored.revision, updatedAt: stored.updatedAt };
}

/** DTO class instances → the plain document that is stored (no prototype, no undefined keys). */
function toPlain(profile: Profile): Profile {
  return JSON.parse(JSON.stringify(profile)) as Profile;
}
