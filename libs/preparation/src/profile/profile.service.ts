import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { ProfileRepository, type Profile, type StoredProfile } from '@jobctrl/shared/profile';
import { PipelineRunService } from '../runs/pipeline-run.service';

export interface ProfileView extends StoredProfile {
  /** The automatic Score → Tailor → Cover batch this update started (null when none could start). */
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

  get(): Promise<StoredProfile> {
    return this.profiles.get();
  }

  async put(profile: Profile): Promise<ProfileView> {
    const stored = await this.profiles.put(toPlain(profile));
    let batch: ProfileView['batch'] = null;
    try {
      batch = await this.runs.startRun({ stages: ['score', 'tailor', 'cover'], scope: 'profile_update', profileRevision: stored.revision });
    } catch (err) {
      this.log.warn(`profile revision ${stored.revision} saved; its preparation batch did not start (${(err as Error).message}); idle recovery will pick it up`);
    }
    return { ...stored, batch };
  }
}

/** DTO class instances → the plain document that is stored (no prototype, no undefined keys). */
function toPlain(profile: Profile): Profile {
  return JSON.parse(JSON.stringify(profile)) as Profile;
}
