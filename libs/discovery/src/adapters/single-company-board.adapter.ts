import type { DiscoverContext, DiscoveredPosting, PostingApiBoard, SourceAdapter, SourceConfigField, SourceKind } from './source-adapter.model';
import { baseUrlField, COMPANY_NAME_FIELD, ConfigReader, tokenField } from './source-config.validation';

/** The employer a board's postings carry, and whether it is only the board's token. */
export interface BoardEmployer {
  company: string;
  /** true: no one named the employer; the page's JSON-LD employer replaces the token later. */
  companyFromToken: boolean;
}

/** The configured company_name, else the name the board gives, else the token (marked as one). */
export function boardEmployer(configured: string | null, named: string | null, token: string): BoardEmployer {
  const company = configured ?? named;
  return company === null ? { company: token, companyFromToken: true } : { company, companyFromToken: false };
}

/** The config every single-company ATS board reads: its API, its board token and the employer's name. */
export interface SingleCompanyBoardConfig {
  base_url: string;
  /** The employer's name as the user gave it; wins over the name the board gives. */
  company_name: string | null;
}

export interface SingleCompanyBoardSpec<C> {
  kind: SourceKind;
  label: string;
  description: string;
  /** The config key naming the board (board_token, site, board, company_id, account). */
  tokenKey: keyof C & string;
  tokenDescription: string;
  /** The provider's public API, read when the source sets no base_url. */
  defaultBaseUrl: string;
}

/**
 * Greenhouse, Lever, Ashby, SmartRecruiters and Workable: one employer's board named by a token,
 * read from the provider's public API. Their config rules are the same three fields, declared here
 * once; each board also answers for one posting by id, which is what postingApi() tells posting
 * checks (so the board keys and default hosts live in discovery only).
 */
export abstract class SingleCompanyBoardAdapter<C extends SingleCompanyBoardConfig> implements SourceAdapter<C> {
  readonly kind: SourceKind;
  readonly label: string;
  readonly description: string;
  readonly fields: readonly SourceConfigField[];
  private readonly tokenKey: keyof C & string;

  protected constructor(spec: SingleCompanyBoardSpec<C>) {
    this.kind = spec.kind;
    this.label = spec.label;
    this.description = spec.description;
    this.tokenKey = spec.tokenKey;
    this.fields = [tokenField(spec.tokenKey, spec.tokenDescription), COMPANY_NAME_FIELD, baseUrlField(spec.defaultBaseUrl)];
  }

  validateConfig(raw: unknown): C {
    const r = new ConfigReader(this.kind, raw, this.fields);
    const config: SingleCompanyBoardConfig & Record<string, string | null> = { base_url: r.baseUrl('base_url') ?? '', [this.tokenKey]: r.token(this.tokenKey), company_name: r.companyName() };
    // C is this base plus the token key, which the object above carries under its computed name.
    return r.finish(config as unknown as C);
  }

  postingApi(config: C): PostingApiBoard {
    return { baseUrl: config.base_url, board: String(config[this.tokenKey]) };
  }

  abstract discover(config: C, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting>;
}
