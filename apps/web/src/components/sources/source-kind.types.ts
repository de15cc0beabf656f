// The kinds the API describes (GET /v1/sources/kinds), from the generated client.
import type { Schemas } from '../../api/client';

export type KindField = Schemas['SourceConfigField'];
export type SourceKindDescription = Schemas['SourceKindInfo'];
export type SourceKindsAnswer = Schemas['SourceKindsView'];
