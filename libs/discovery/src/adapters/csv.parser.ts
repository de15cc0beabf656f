/** Why a CSV document could not be read; `line` is 1-based, counted in physical lines. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`CSV line ${line}: ${reason}`);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * RFC 4180 CSV: comma-separated fields, CRLF or LF record ends, fields in double quotes may hold
 * commas, line breaks and doubled quotes (""). Also tolerated, because pandas/Excel exports have
 * them: a UTF-8 BOM, a missing final line break, and blank lines (skipped). A quote inside an
 * unquoted field is kept literally; text after a closing quote, or an unterminated quote, is an error.
 */
export function parseCsv(text: string): string[][] {
  return parseCsvRows(text).map((r) => r.fields);
}

interface CsvRow {
  fields: string[];
  /** Physical line the record starts on. */
  line: number;
}

function parseCsvRows(text: string): CsvRow[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  // fieldFresh: nothing read yet for the current field (a quote here opens a quoted field).
  // rowStarted: the record has content, so a line end emits it (a blank line emits nothing).
  let fieldFresh = true;
  let rowStarted = false;
  let i = 0;
  const n = input.length;

  const endRecord = () => {
    if (rowStarted) {
      fields.push(field);
      rows.push({ fields, line: recordLine });
    }
    fields = [];
    field = '';
    fieldFresh = true;
    rowStarted = false;
  };

  while (i < n) {
    const c = input[i];
    if (c === '"' && fieldFresh) {
      // Quoted field: runs to the next quote that is not doubled.
      const startLine = line;
      i++;
      for (;;) {
        if (i >= n) throw new CsvSyntaxError(startLine, 'unterminated quoted field');
        const q = input[i];
        if (q === '"') {
          if (input[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      fieldFresh = false;
      rowStarted = true;
      const after = input[i];
      if (i < n && after !== ',' && after !== '\n' && after !== '\r') {
        throw new CsvSyntaxError(line, `unexpected ${JSON.stringify(after)} after a closing quote`);
      }
      continue;
    }
    if (c === ',') {
      fields.push(field);
      field = '';
      fieldFresh = true;
      rowStarted = true;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && input[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
      continue;
    }
    field += c;
    fieldFresh = false;
    rowStarted = true;
    i++;
  }
  endRecord();
  return rows;
}

/**
 * Rows as objects keyed by the header row. A row with more fields than the header is an error; a
 * shorter row is padded with empty strings (spreadsheet tools drop trailing empty cells).
 */
export function parseCsvRecords(text: string): { header: string[]; records: Record<string, string>[] } {
  const rows = parseCsvRows(text);
  if (!rows.length) return { header: [], records: [] };
  const header = rows[0].fields.map((h) => h.trim());
  const records = rows.slice(1).map(({ fields, line }, index) => {
    if (fields.length > header.length) {
      throw new CsvSyntaxError(line, `record ${index + 1} has ${fields.length} fields but the header has ${header.length}`);
    }
    const record: Record<string, string> = {};
    header.forEach((name, col) => {
      record[name] = fields[col] ?? '';
    });
    return record;
  });
  return { header, records };
}
