import { badRequest, conflict, tooManyRequests } from './http-errors';

// The exact bytes a client receives: Nest serialises the exception's response object as is.
const json = (e: { getStatus(): number; getResponse(): unknown }) => [e.getStatus(), JSON.stringify(e.getResponse())];

describe('API error bodies', () => {
  it('a 400 names each bad field, with a message listing them unless the caller gives one', () => {
    const errors = [{ field: 'config.board', value: 7, rule: 'must be a string' }, { field: 'name', value: '', rule: 'must not be empty' }];
    expect(json(badRequest(errors))).toEqual([
      400,
      '{"statusCode":400,"error":"Bad Request","message":"config.board = 7: must be a string; name = \\"\\": must not be empty","errors":[{"field":"config.board","value":7,"rule":"must be a string"},{"field":"name","value":"","rule":"must not be empty"}]}',
    ]);
    expect(json(badRequest([{ field: 'sourceIds', value: ['a'], rule: 'only with the discover stage' }], 'sourceIds need the discover stage'))).toEqual([
      400,
      '{"statusCode":400,"error":"Bad Request","message":"sourceIds need the discover stage","errors":[{"field":"sourceIds","value":["a"],"rule":"only with the discover stage"}]}',
    ]);
  });

  it('a 409 carries its fields only when it has any', () => {
    expect(json(conflict('run r1 is already completed'))).toEqual([409, '{"statusCode":409,"error":"Conflict","message":"run r1 is already completed"}']);
    expect(json(conflict('a source named "x" already exists', [{ field: 'name', value: 'x', rule: 'must be unique' }]))).toEqual([
      409,
      '{"statusCode":409,"error":"Conflict","message":"a source named \\"x\\" already exists","errors":[{"field":"name","value":"x","rule":"must be unique"}]}',
    ]);
  });

  it('a 429 says when to ask again, in whole seconds, never 0', () => {
    expect(json(tooManyRequests('the budget is spent', 12.2))).toEqual([429, '{"statusCode":429,"error":"Too Many Requests","message":"the budget is spent","retryAfterSeconds":13}']);
    expect(json(tooManyRequests('the budget is spent', 0))[1]).toContain('"retryAfterSeconds":1}');
  });
});
