import type { PreparationSteps } from '@jobctrl/pipeline/contracts';
import { createExtractivePreparationActivities } from './extractive-preparation.activity';

/**
 * Stage steps over one job held in memory, behaving as the stage activities do: each acts only in its
 * own pending stage and otherwise reports where the job stands. `failOnce` makes one step fail once
 * after its write, as a crash after a commit would.
 */
function job(failOnce?: keyof PreparationSteps) {
  const state = { stage: 'scored', score: 10, stale: true, drafts: 0 };
  const calls: string[] = [];
  let failed = false;
  const step = <T>(name: keyof PreparationSteps, act: () => T): T => {
    calls.push(name);
    const out = act();
    if (name === failOnce && !failed) {
      failed = true;
      throw new Error(`${name} lost its worker`);
    }
    return out;
  };
  const steps: PreparationSteps = {
    scoreJob: async ({ allowScore }) =>
      step('scoreJob', () => {
        if (allowScore && state.stale) Object.assign(state, { stale: false, score: 80, stage: 'pending_tailor' });
        return { score: state.score, stage: state.stage };
      }),
    tailorResume: async () => step('tailorResume', () => ({ stage: state.stage === 'pending_tailor' ? (state.stage = 'pending_cover') : state.stage })),
    writeCoverLetter: async () => step('writeCoverLetter', () => ({ attempt: state.stage === 'pending_cover' ? ++state.drafts : state.drafts })),
    reviewCoverLetter: async () => step('reviewCoverLetter', () => ({ stage: state.stage === 'pending_cover' ? (state.stage = 'prepared') : state.stage })),
  };
  return { state, calls, steps };
}

describe('prepareJobExtractive', () => {
  it('runs the selected stages in order in one call and reports where the job ended', async () => {
    const j = job();
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', steps: j.steps });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).toEqual({ extractive: true, stage: 'prepared', score: 80 });
    expect(j.calls).toEqual(['scoreJob', 'tailorResume', 'writeCoverLetter', 'reviewCoverLetter']);
  });

  it('stops at the last selected stage', async () => {
    const j = job();
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', steps: j.steps });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score'] })).toEqual({ extractive: true, stage: 'pending_tailor', score: 80 });
    expect(j.calls).toEqual(['scoreJob']);
  });

  it('a retry after a failure mid-way resumes from the stage the job reached (nothing done twice)', async () => {
    const j = job('writeCoverLetter');
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', steps: j.steps });
    await expect(prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).rejects.toThrow('lost its worker');
    expect(j.state).toMatchObject({ stage: 'pending_cover', drafts: 1 });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).toEqual({ extractive: true, stage: 'prepared', score: 80 });
    // The retry's score step only reported the stage (pending_cover: no tailoring again); its one new
    // draft is the second, as a retried writeCoverLetter activity's would be.
    expect(j.state.drafts).toBe(2);
    expect(j.calls.slice(3)).toEqual(['scoreJob', 'writeCoverLetter', 'reviewCoverLetter']);
  });

  it('on a worker with a model provider does nothing, so the workflow goes stage by stage behind the spend preflight', async () => {
    const j = job();
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'openai', steps: j.steps });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).toMatchObject({ extractive: false });
    expect(j.calls).toEqual([]);
    expect(j.state.stage).toBe('scored');
  });
});
