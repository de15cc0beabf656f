/**
 * What the operations snapshot may show about a running activity. Activity types listed here get a
 * detail item; every other activity is still counted in the slot totals, just not itemised.
 */
export const ACTIVITY_DETAIL_ALLOWLIST = [
  'smokeHold',
  'recordWorkflowLifecycle',
  'planDiscoverySources',
  'discoverySourceFamily',
  'discoveryEnrichment',
  'fanOutPreparation',
  'scoreJob',
] as const;

/**
 * Workflow ids built by jobctrl's own id builders (prep-{idempotency_key}, apply-{tenant}-{jobKey},
 * discover-/pipeline-/smoke- runs). Only ids matching this grammar stay readable in telemetry; any
 * other id (e.g. one a user supplied) is replaced by an opaque local hash.
 */
export const READABLE_WORKFLOW_ID = /^(prep|apply|discover|pipeline|smoke|recovery|sweep)-[A-Za-z0-9._:-]{1,160}$/;
