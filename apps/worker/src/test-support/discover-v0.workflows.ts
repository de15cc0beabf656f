// DiscoverWorkflow as it was before the `discover-terminal-enrichment-handoff-v1` marker: the
// terminal reconcile ran without per-job handoff and recorded no marker. Used only to record an old
// history for the replay test.
import type { DiscoverWorkflowInput, DiscoverWorkflowResult } from '@jobctrl/pipeline/contracts';
import { runDiscovery } from '@jobctrl/pipeline/workflows';

export { jobPreparationWorkflow } from '@jobctrl/pipeline/workflows';

export async function discoverWorkflow(input: DiscoverWorkflowInput): Promise<DiscoverWorkflowResult> {
  return runDiscovery(input, () => false);
}
