import { foldSmokeResults } from './smoke.workflow';

describe('foldSmokeResults', () => {
  it('reports the highest peak any hold saw and the distinct workers', () => {
    expect(
      foldSmokeResults([
        { index: 0, observedActive: 1, peakActive: 2, workerIdentity: 'b' },
        { index: 1, observedActive: 2, peakActive: 2, workerIdentity: 'a' },
        { index: 2, observedActive: 1, peakActive: 1, workerIdentity: 'b' },
      ]),
    ).toEqual({ completed: 3, maxObservedActive: 2, workers: ['a', 'b'] });
  });

  it('handles an empty fan-out', () => {
    expect(foldSmokeResults([])).toEqual({ completed: 0, maxObservedActive: 0, workers: [] });
  });
});
