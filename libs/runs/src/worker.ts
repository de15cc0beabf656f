// The worker's entry point (@jobctrl/runs/worker): the preparation start (id reuse) and idle recovery
// policies the worker wires. Apart from the API's entry point so the API process does not load the
// activity SDK, enrichment or the browser driver.
export * from './preparation/preparation-starter';
export * from './preparation/preparation-recovery';
export * from './availability/availability-schedule';
