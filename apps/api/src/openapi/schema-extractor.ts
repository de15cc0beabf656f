import * as path from 'node:path';
import ts from 'typescript';

/**
 * Reads the API's controllers with the TypeScript checker and turns what each route returns and
 * accepts (@Body, @Query) into OpenAPI 3.0 schemas. The services answer with interfaces and type
 * aliases (JobView, OperationsSnapshot, …), which neither @nestjs/swagger's reflection nor its CLI
 * plugin can see (they read classes only), and hand-copied response classes would drift from the
 * code. So the schemas are derived from the same types the code compiles against, written to
 * openapi.schemas.generated.ts (`nx run api:openapi`), and openapi.spec.ts fails when that file is
 * stale. Runs at build/test time only: the running API never loads the compiler.
 */

import type { ExtractedSchemas, OperationSchemas, Schema } from './openapi.types';

const HTTP_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'Sse']);
// Library generics are expanded, never named: Record<string, X> is a map, not a "Record" schema.
const root = path.resolve(__dirname, '..', '..', '..', '..');

function decoratorNames(node: ts.Node): string[] {
  if (!ts.canHaveDecorators(node)) return [];
  return (ts.getDecorators(node) ?? []).flatMap((d) => {
    const e = d.expression;
    const callee = ts.isCallExpression(e) ? e.expression : e;
    return ts.isIdentifier(callee) ? [callee.text] : [];
  });
}

class SchemaBuilder {
  readonly components: Record<string, Schema> = {};
  private readonly names = new Map<ts.Symbol, string>();

  constructor(private readonly checker: ts.TypeChecker) {}

  /** A repository-declared interface, class or alias gets a component; anything else is inlined. */
  private componentSymbol(type: ts.Type): ts.Symbol | undefined {
    const symbol = type.aliasSymbol ?? (type.flags & ts.TypeFlags.Object ? type.getSymbol() : undefined);
    if (!symbol || symbol.name.startsWith('__')) return undefined;
    const decl = symbol.declarations?.[0];
    if (!decl) return undefined;
    const file = path.resolve(decl.getSourceFile().fileName);
    if (!file.startsWith(root + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
    // Generic instantiations (Paged<T>) would collide under one name.
    if (type.aliasTypeArguments?.length || (type as ts.TypeReference).typeArguments?.length) return undefined;
    return symbol;
  }

  schemaOf(type: ts.Type): Schema {
    const symbol = this.componentSymbol(type);
    if (!symbol) return this.expand(type);
    let name = this.names.get(symbol);
    if (!name) {
      name = symbol.name;
      for (let i = 2; Object.values(Object.fromEntries(this.names)).includes(name) || (name in this.components && !this.names.has(symbol)); i++) name = `${symbol.name}${i}`;
      this.names.set(symbol, name);
      this.components[name] = {}; // placeholder: a recursive type refers to itself by $ref
      this.components[name] = this.expand(type);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private expand(type: ts.Type): Schema {
    const c = this.checker;
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.Null) return { nullable: true };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [(type as ts.StringLiteralType).value] };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', enum: [(type as ts.NumberLiteralType).value] };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', enum: [c.typeToString(type) === 'true'] };
    if (f & ts.TypeFlags.StringLike) return { type: 'string' };
    if (f & ts.TypeFlags.NumberLike) return { type: 'number' };
    if (f & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
    if (type.isUnion()) return this.union(type);
    if (c.isArrayType(type) || c.isTupleType(type)) {
      const args = c.getTypeArguments(type as ts.TypeReference);
      const items = c.isTupleType(type) ? this.union(args) : this.schemaOf(args[0]);
      return { type: 'array', items };
    }
    const symbolName = type.getSymbol()?.name;
    if (symbolName === 'Date') return { type: 'string', format: 'date-time' };
    if (symbolName === 'Buffer' || symbolName === 'Uint8Array') return { type: 'string', format: 'binary' };
    return this.composite(type) ?? this.object(type);
  }

  /**
   * `interface A extends B` and `B & {…}` with B a component: allOf [B, A's own fields], so the
   * document (and a client generated from it) shows the relation instead of a second copy of B.
   */
  private composite(type: ts.Type): Schema | undefined {
    const c = this.checker;
    const isInterface = (type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & (ts.ObjectFlags.Interface | ts.ObjectFlags.Class)) !== 0;
    const parts = type.isIntersection() ? type.types : isInterface ? c.getBaseTypes(type as ts.InterfaceType) : [];
    const bases = parts.filter((t) => this.componentSymbol(t));
    if (bases.length === 0) return undefined;
    const inherited = new Set(bases.flatMap((b) => c.getPropertiesOfType(b).map((p) => p.name)));
    const own = this.object(type, inherited);
    return { allOf: [...bases.map((b) => this.schemaOf(b)), ...(own['properties'] || own['additionalProperties'] ? [own] : [])] };
  }

  /** `T | null` is nullable T; a union of literals is an enum; anything else is oneOf. */
  private union(type: ts.UnionType | readonly ts.Type[]): Schema {
    const all = Array.isArray(type) ? (type as readonly ts.Type[]) : (type as ts.UnionType).types;
    const nullable = all.some((t) => t.flags & ts.TypeFlags.Null);
    const members = all.filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    // OpenAPI 3.0 ignores siblings of $ref, so a nullable reference is wrapped in allOf.
    const withNull = (s: Schema): Schema => (!nullable ? s : '$ref' in s ? { allOf: [s], nullable: true } : { ...s, nullable: true });
    if (members.length === 0) return { nullable: true };
    if (members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) {
      return withNull(members.length === 2 ? { type: 'boolean' } : this.expand(members[0]));
    }
    for (const [flag, kind] of [[ts.TypeFlags.StringLiteral, 'string'], [ts.TypeFlags.NumberLiteral, 'number']] as const) {
      if (members.every((t) => t.flags & flag)) {
        // Sorted: a union's member order follows the checker's type ids, which shift as unrelated code changes.
        const values = members.map((t) => (t as ts.LiteralType).value as string | number).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        return withNull({ type: kind, enum: values });
      }
    }
    if (members.length === 1) return withNull(this.schemaOf(members[0]));
    const variants = members.map((t) => this.schemaOf(t));
    return withNull({ oneOf: variants });
  }

  object(type: ts.Type, skip: ReadonlySet<string> = new Set()): Schema {
    const c = this.checker;
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const prop of c.getPropertiesOfType(type)) {
      if (skip.has(prop.name)) continue;
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      const propType = c.getTypeOfSymbol(prop);
      if (propType.getCallSignatures().length > 0) continue; // methods are not JSON
      if (decl && ts.isPropertyDeclaration(decl) && decl.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) continue;
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const stripped = optional ? c.getNonNullableType(propType) : propType;
      // getNonNullableType also drops null: keep `x?: T | null` nullable.
      let schema = optional && stripped !== propType && propType.isUnion() ? this.union(propType) : this.schemaOf(stripped);
      const doc = ts.displayPartsToString(prop.getDocumentationComment(c)).trim();
      if (doc) schema = '$ref' in schema ? { allOf: [schema], description: doc } : { ...schema, description: doc };
      properties[prop.name] = schema;
      if (!optional) required.push(prop.name);
    }
    const index = c.getIndexInfoOfType(type, ts.IndexKind.String);
    const out: Schema = { type: 'object', properties };
    if (required.length > 0) out['required'] = required;
    if (index) out['additionalProperties'] = this.schemaOf(index.type);
    if (Object.keys(properties).length === 0) delete out['properties'];
    return out;
  }
}

function awaited(checker: ts.TypeChecker, type: ts.Type): ts.Type {
  return checker.getAwaitedType(type) ?? type;
}

/** Walks every controller under `controllersDir` and returns the schemas of each route. */
export function extractSchemas(controllersDir = path.join(root, 'apps', 'api', 'src', 'controllers')): ExtractedSchemas {
  const configPath = path.join(root, 'tsconfig.base.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const files = ts.sys.readDirectory(controllersDir, ['.ts']).filter((f) => f.endsWith('.controller.ts'));
  const program = ts.createProgram({ rootNames: files, options: { ...parsed.options, noEmit: true } });
  const checker = program.getTypeChecker();
  const builder = new SchemaBuilder(checker);
  const operations: Record<string, OperationSchemas> = {};

  for (const file of files.sort()) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`not in the program: ${file}`);
    for (const cls of source.statements.filter(ts.isClassDeclaration)) {
      if (!cls.name || !decoratorNames(cls).includes('Controller')) continue;
      for (const member of cls.members) {
        if (!ts.isMethodDeclaration(member) || !decoratorNames(member).some((d) => HTTP_DECORATORS.has(d))) continue;
        const decorators = decoratorNames(member);
        const httpCode = ts.getDecorators(member)
          ?.map((d) => d.expression)
          .find((e): e is ts.CallExpression => ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'HttpCode');
        const codeArg = httpCode?.arguments[0];
        // Nest's defaults when no @HttpCode: 201 for POST, 200 otherwise.
        const status = codeArg && ts.isNumericLiteral(codeArg) ? Number(codeArg.text) : decorators.includes('Post') ? 201 : 200;
        const op: OperationSchemas = { status };
        const signature = checker.getSignatureFromDeclaration(member);
        if (!signature) continue;
        const result = awaited(checker, checker.getReturnTypeOfSignature(signature));
        if (decorators.includes('Sse')) {
          // A server-sent-events route answers Observable<E>: documented as text/event-stream whose
          // events are E ({type: the SSE event name, data: its JSON}).
          const [event] = result.getSymbol()?.name === 'Observable' ? checker.getTypeArguments(result as ts.TypeReference) : [];
          if (!event) throw new Error(`${cls.name.text}.${(member.name as ts.Identifier).text}: an @Sse() route must be typed Observable<Event>`);
          op.eventStream = builder.schemaOf(event);
        } else if (result.getSymbol()?.name === 'StreamableFile') op.binary = true;
        else if (!(result.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined))) op.response = builder.schemaOf(result);
        for (const param of member.parameters) {
          const decorators = decoratorNames(param);
          const paramType = checker.getTypeAtLocation(param);
          if (decorators.includes('Body')) op.body = builder.schemaOf(paramType);
          if (decorators.includes('Query')) {
            const inline = builder.object(paramType);
            op.query = { dto: paramType.getSymbol()?.name ?? '', properties: (inline['properties'] as Record<string, Schema>) ?? {}, required: (inline['required'] as string[]) ?? [] };
          }
        }
        operations[`${cls.name.text}_${(member.name as ts.Identifier).text}`] = op;
      }
    }
  }
  return { operations, components: builder.components };
}

/** The generated module's text: deterministic, so the staleness check is a string comparison. */
export function renderSchemasModule(schemas: ExtractedSchemas): string {
  return [
    '// Generated by apps/api/src/openapi/generate.ts (`npx nx run api:openapi`) from the controllers\' types. Do not edit.',
    "import type { ExtractedSchemas } from './openapi.types';",
    '',
    `export const GENERATED_SCHEMAS: ExtractedSchemas = ${JSON.stringify(schemas, null, 2)};`,
    '',
  ].join('\n');
}
