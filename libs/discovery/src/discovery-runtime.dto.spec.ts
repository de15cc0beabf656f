import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { UpdateDiscoveryRuntimeDto } from './discovery-runtime.dto';

function errorsFor(body: unknown): string[] {
  const dto = plainToInstance(UpdateDiscoveryRuntimeDto, body);
  return validateSync(dto as object, { forbidNonWhitelisted: true, whitelist: true }).flatMap((e) => Object.values(e.constraints ?? {}));
}

describe('UpdateDiscoveryRuntimeDto', () => {
  it('accepts 1..16', () => {
    expect(errorsFor({ max_parallel_families: 1 })).toEqual([]);
    expect(errorsFor({ max_parallel_families: 16 })).toEqual([]);
  });

  it('rejects out-of-range, fractional and string values with the key in the message', () => {
    expect(errorsFor({ max_parallel_families: 0 })).toEqual(['max_parallel_families must be at least 1']);
    expect(errorsFor({ max_parallel_families: 17 })).toEqual(['max_parallel_families must be at most 16']);
    expect(errorsFor({ max_parallel_families: 1.5 })).toContain('max_parallel_families must be an integer');
    expect(errorsFor({ max_parallel_families: '2' })).toContain('max_parallel_families must be an integer');
  });
});
