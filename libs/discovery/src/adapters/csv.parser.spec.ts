import { CsvSyntaxError, parseCsv, parseCsvRecords } from './csv.parser';

describe('parseCsv (RFC 4180)', () => {
  it('splits fields and records, with CRLF or LF line ends and no final line break', () => {
    expect(parseCsv('a,b,c\r\n1,2,3\n4,5,6')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
      ['4', '5', '6'],
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('name,note\r\n"Acme, Inc.","He said ""hi""\r\nthen left"\r\n')).toEqual([
      ['name', 'note'],
      ['Acme, Inc.', 'He said "hi"\r\nthen left'],
    ]);
  });

  it('keeps empty fields, including a quoted empty one and a trailing one', () => {
    expect(parseCsv('a,,"",d,\n')).toEqual([['a', '', '', 'd', '']]);
  });

  it('skips blank lines and a UTF-8 BOM', () => {
    expect(parseCsv('\ufeffa,b\n\n1,2\n\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('keeps a quote inside an unquoted field literally', () => {
    expect(parseCsv('5" screen,x')).toEqual([['5" screen', 'x']]);
  });

  it('rejects an unterminated quote and text after a closing quote, with the line', () => {
    expect(() => parseCsv('a\n"open,\nstill open')).toThrow(new CsvSyntaxError(2, 'unterminated quoted field'));
    expect(() => parseCsv('a,b\n"x"y,z')).toThrow(/CSV line 2: unexpected "y" after a closing quote/);
  });
});

describe('parseCsvRecords', () => {
  it('keys rows by the header and pads short rows', () => {
    expect(parseCsvRecords('id,title,company\n1,Dev\n')).toEqual({
      header: ['id', 'title', 'company'],
      records: [{ id: '1', title: 'Dev', company: '' }],
    });
  });

  it('rejects a row longer than the header, naming its line', () => {
    expect(() => parseCsvRecords('a,b\n"multi\nline",2\n1,2,3\n')).toThrow(/CSV line 4: record 2 has 3 fields but the header has 2/);
  });

  it('reads an empty document as no records', () => {
    expect(parseCsvRecords('')).toEqual({ header: [], records: [] });
  });
});
