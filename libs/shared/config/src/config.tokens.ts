/** Nest injection token for the ResolvedConfig the process started with. */
export const JOBCTRL_CONFIG = 'JOBCTRL_CONFIG';
