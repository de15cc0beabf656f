import type { RealBoard } from '@jobctrl/tools/fixtures';

/** The config key naming the board, per kind (the aggregators have none). */
const TOKEN_KEY: Readonly<Record<string, string>> = { greenhouse: 'board_token', lever: 'site', ashby: 'board', smartrecruiters: 'company_id', workable: 'account' };

/** A source config for one board of boards.json on the replay server at `origin`. */
export function realBoardSourceConfig(board: RealBoard, origin: string): Record<string, unknown> {
  const key = TOKEN_KEY[board.kind];
  return { ...(key ? { [key]: board.token } : {}), ...board.config, base_url: origin };
}

/** Every expected location appears (case-insensitively) within one of the posting's locations. */
export function missingLocations(have: readonly string[], want: readonly string[]): string[] {
  const lower = have.map((l) => l.toLowerCase());
  return want.filter((w) => !lower.some((h) => h.includes(w.toLowerCase())));
}
