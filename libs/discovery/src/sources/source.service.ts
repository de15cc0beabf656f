import { Inject, Injectable, NotFoundException, Optional } from '@nestjs/common';
import { defaultResolvedConfig } from '@jobctrl/shared/config';
import { badRequest, conflict } from '@jobctrl/shared/api-errors';
import { randomUUID } from 'node:crypto';
import { SOURCE_ADAPTERS, sourceKinds } from '../adapters/source-adapter.registry';
import { SourceConfigError, SourceKind } from '../adapters/source-adapter.model';
import type { CreateSourceDto, SourceKindsView, SourceView, UpdateSourceDto } from './source.dto';
import { SourceEntity } from './source.entity';
import { SourceRepository } from './source.repository';
import { SOURCE_ADDRESS_POLICY, sourceAddressIssues, sourceAddressPolicyOf, type SourceAddressPolicy } from './source-address.rules';

/**
 * Source controls. A config is stored only after the adapter of its kind accepted it, so a run never
 * starts a family with a config it cannot read; errors name each field as `config.<field>`.
 */
@Injectable()
export class SourceService {
  private readonly policy: SourceAddressPolicy;

  /**
   * `policy`: allowed_private_hosts and file_source_dirs (#15). Without one (a bench, a test) the
   * schema's defaults apply: no private host, files only under <default app_dir>/imports.
   */
  constructor(
    private readonly repository: SourceRepository,
    @Optional() @Inject(SOURCE_ADDRESS_POLICY) policy?: SourceAddressPolicy,
  ) {
    this.policy = policy ?? sourceAddressPolicyOf(defaultResolvedConfig());
  }

  async list(): Promise<SourceView[]> {
    return (await this.repository.list()).map(toView);
  }

  /** The rules a Sources form is built from; the same declarations checkedConfig validates with. */
  kinds(): SourceKindsView {
    return { kinds: sourceKinds() };
  }

  async get(id: string): Promise<SourceView> {
    return toView(await this.require(id));
  }

  async create(dto: CreateSourceDto, now = Date.now()): Promise<SourceView> {
    const entity = Object.assign(new SourceEntity(), {
      id: randomUUID(),
      kind: dto.kind,
      name: dto.name,
      family: dto.family ?? dto.kind,
      enabled: dto.enabled ?? true,
      config: JSON.stringify(await checkedConfig(dto.kind, dto.config, this.policy)),
      createdAt: now,
      updatedAt: now,
    });
    await this.saveOrConflict(entity);
    return toView(entity);
  }

  async update(id: string, dto: UpdateSourceDto, now = Date.now()): Promise<SourceView> {
    const current = await this.require(id);
    if (dto.kind !== undefined && dto.kind !== current.kind) {
      throw badRequest([{ field: 'kind', value: dto.kind, rule: `cannot change from ${current.kind}; create a new source instead` }]);
    }
    const next = Object.assign(new SourceEntity(), current, {
      name: dto.name ?? current.name,
      family: dto.family ?? current.family,
      enabled: dto.enabled ?? current.enabled,
      config: dto.config === undefined ? current.config : JSON.stringify(await checkedConfig(current.kind as SourceKind, dto.config, this.policy)),
      updatedAt: now,
    });
    await this.saveOrConflict(next);
    return toView(next);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.repository.remove(id))) throw new NotFoundException(`no source ${id}`);
  }

  /**
   * Sources a run is asked to crawl must exist and be enabled: an unknown (or deleted) id is a 400
   * naming each id under `sourceIds`, a disabled one a 409. Checked before the run starts, so no run
   * is left waiting on a source it can never crawl.
   */
  async requireRunnable(ids: readonly string[]): Promise<void> {
    const all = await this.repository.list();
    const unknown = ids.filter((id) => !all.some((s) => s.id === id));
    if (unknown.length > 0) {
      throw badRequest(
        unknown.map((id) => ({ field: 'sourceIds', value: id, rule: 'must be the id of an existing source (GET /v1/sources)' })),
        `unknown source ids: ${unknown.join(', ')}`,
      );
    }
    const disabled = all.filter((s) => ids.includes(s.id) && !s.enabled);
    if (disabled.length > 0) {
      throw conflict(
        `disabled sources cannot run: ${disabled.map((s) => `${s.name} (${s.id})`).join(', ')}; enable them with PATCH /v1/sources/:id`,
        disabled.map((s) => ({ field: 'sourceIds', value: s.id, rule: 'source is disabled' })),
      );
    }
  }

  private async require(id: string): Promise<SourceEntity> {
    const found = await this.repository.find(id);
    if (!found) throw new NotFoundException(`no source ${id}`);
    return found;
  }

  private async saveOrConflict(entity: SourceEntity): Promise<void> {
    if (!(await this.repository.save(entity))) {
      throw conflict(`a source named ${JSON.stringify(entity.name)} already exists`, [{ field: 'name', value: entity.name, rule: 'must be unique' }]);
    }
  }
}

/**
 * Validates with the adapter and returns the config AS SENT: the adapter's resolved form (defaults,
 * derived fields) is recomputed at crawl time, so a stored config always re-validates and later
 * default changes reach sources that never set the key.
 */
async function checkedConfig(kind: SourceKind, config: Record<string, unknown>, policy: SourceAddressPolicy): Promise<Record<string, unknown>> {
  try {
    SOURCE_ADAPTERS[kind].validateConfig(config);
  } catch (err) {
    if (err instanceof SourceConfigError) {
      throw badRequest(
        err.issues.map((i) => ({ field: `config.${i.field}`, value: i.value, rule: i.rule })),
        err.message,
      );
    }
    throw err;
  }
  // Only a config the adapter accepts gets here: where it points is the last rule (see source-address.rules).
  const issues = await sourceAddressIssues(kind, config, policy, SOURCE_ADAPTERS[kind].fields);
  if (issues.length > 0) throw badRequest(issues, issues.map((i) => `${i.field} ${i.rule}`).join('; '));
  return config;
}

function toView(e: SourceEntity): SourceView {
  return {
    id: e.id,
    kind: e.kind as SourceKind,
    name: e.name,
    family: e.family,
    enabled: e.enabled,
    config: JSON.parse(e.config) as Record<string, unknown>,
    createdAt: new Date(e.createdAt).toISOString(),
    updatedAt: new Date(e.updatedAt).toISOString(),
  };
}
