// The kinds the API describes (GET /v1/sources/kinds). TEMPORARY: written from the agreed contract
// until the route is in the OpenAPI document; then these become aliases of the generated types.
export interface KindField {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'url' | 'enum' | 'string[]' | 'object' | 'object[]' | (string & {});
  required: boolean;
  description: string;
  default?: unknown;
  options?: string[];
  min?: number;
  max?: number;
  maxItems?: number;
  fields?: KindField[];
}

export interface SourceKindDescription {
  kind: string;
  label: string;
  description: string;
  fields: KindField[];
}

export interface SourceKindsAnswer {
  kinds: SourceKindDescription[];
}
