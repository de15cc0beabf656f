import { ArbeitnowAdapter } from './arbeitnow.adapter';
import { AshbyAdapter } from './ashby.adapter';
import { FileSourceAdapter } from './file.adapter';
import { GreenhouseAdapter } from './greenhouse.adapter';
import { JobStreamingAdapter } from './jobstreaming.adapter';
import { LeverAdapter } from './lever.adapter';
import { RemoteOkAdapter } from './remoteok.adapter';
import { RemotiveAdapter } from './remotive.adapter';
import { SmartRecruitersAdapter } from './smartrecruiters.adapter';
import type { SourceAdapter, SourceKind } from './source-adapter.model';
import { WorkableAdapter } from './workable.adapter';

/**
 * One adapter per source kind. Config types differ per kind, so entries are typed loosely here; a
 * caller passes each adapter only the config its own validateConfig returned.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous config types, see above
export const SOURCE_ADAPTERS: Record<SourceKind, SourceAdapter<any>> = {
  greenhouse: new GreenhouseAdapter(),
  lever: new LeverAdapter(),
  ashby: new AshbyAdapter(),
  smartrecruiters: new SmartRecruitersAdapter(),
  workable: new WorkableAdapter(),
  remotive: new RemotiveAdapter(),
  remoteok: new RemoteOkAdapter(),
  arbeitnow: new ArbeitnowAdapter(),
  file: new FileSourceAdapter(),
  jobstreaming: new JobStreamingAdapter(),
};
