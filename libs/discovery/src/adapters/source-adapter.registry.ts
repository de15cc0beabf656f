import { ArbeitnowAdapter } from './arbeitnow.adapter';
import { AshbyAdapter } from './ashby.adapter';
import { FileSourceAdapter } from './file.adapter';
import { GreenhouseAdapter } from './greenhouse.adapter';
import { JobStreamingAdapter } from './jobstreaming.adapter';
import { LeverAdapter } from './lever.adapter';
import { RemoteOkAdapter } from './remoteok.adapter';
import { RemotiveAdapter } from './remotive.adapter';
import { SmartRecruitersAdapter } from './smartrecruiters.adapter';
import { SOURCE_KINDS, SourceConfigError, type PostingApiBoard, type SourceAdapter, type SourceKind, type SourceKindInfo } from './source-adapter.model';
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

/** Every kind's config rules as its adapter declares them (GET /v1/sources/kinds), in SOURCE_KINDS order. */
export function sourceKinds(): SourceKindInfo[] {
  return SOURCE_KINDS.map((kind) => {
    const adapter = SOURCE_ADAPTERS[kind];
    return { kind, label: adapter.label, description: adapter.description, fields: [...adapter.fields] };
  });
}

/**
 * The board API that can answer for one posting of a source of `kind` with this stored config, or
 * null (a kind without such an API, or a config its adapter no longer accepts). Posting checks get
 * this function injected by the worker: the board keys and default hosts stay the adapters' own.
 */
export function postingApiOf(kind: string, rawConfig: unknown): PostingApiBoard | null {
  const adapter = (SOURCE_ADAPTERS as Record<string, SourceAdapter<unknown> | undefined>)[kind];
  if (!adapter?.postingApi) return null;
  try {
    return adapter.postingApi(adapter.validateConfig(rawConfig));
  } catch (err) {
    if (err instanceof SourceConfigError) return null;
    throw err;
  }
}
