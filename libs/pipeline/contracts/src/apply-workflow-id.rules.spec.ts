import { InvalidWorkflowIdPartError, applyWorkflowId } from './apply-workflow-id.rules';

describe('applyWorkflowId', () => {
  it('builds apply-{tenant}-{jobKey}', () => {
    expect(applyWorkflowId('acme', 'greenhouse:12345')).toBe('apply-acme-greenhouse:12345');
    expect(applyWorkflowId('T_1.x', 'lever-abc_DEF.9')).toBe('apply-T_1.x-lever-abc_DEF.9');
  });

  it('is deterministic, so a repeated launch maps to the same Temporal workflow', () => {
    expect(applyWorkflowId('acme', 'job-1')).toBe(applyWorkflowId('acme', 'job-1'));
    expect(applyWorkflowId('acme', 'job-1')).not.toBe(applyWorkflowId('acme', 'job-2'));
  });

  it.each([
    ['tenant', '', 'job'],
    ['tenant', 'acme corp', 'job'],
    ['tenant', 'acme/evil', 'job'],
    ['jobKey', 'acme', 'job\n1'],
    ['jobKey', 'acme', 'jöb'],
    ['jobKey', 'acme', ''],
  ])('rejects a bad %s and names it', (part, tenant, jobKey) => {
    let thrown: unknown;
    try {
      applyWorkflowId(tenant, jobKey);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidWorkflowIdPartError);
    expect((thrown as InvalidWorkflowIdPartError).part).toBe(part);
    expect((thrown as Error).message).toMatch(new RegExp(`^Invalid ${part} for apply workflow id`));
  });

  it('reports the tenant first when both parts are bad', () => {
    expect(() => applyWorkflowId('a b', 'c d')).toThrow(/^Invalid tenant/);
  });

  it('rejects non-strings from untyped callers with a readable message', () => {
    expect(() => applyWorkflowId(undefined as unknown as string, 'job')).toThrow('Invalid tenant for apply workflow id: expected a string, got undefined');
    expect(() => applyWorkflowId('acme', null as unknown as string)).toThrow(/jobKey.*got null/);
  });

  it('quotes and truncates the offending value in the message', () => {
    expect(() => applyWorkflowId('acme', 'bad key')).toThrow('got "bad key"');
    expect(() => applyWorkflowId('x'.repeat(100) + ' ', 'job')).toThrow(`got "${'x'.repeat(64)}…"`);
  });
});
