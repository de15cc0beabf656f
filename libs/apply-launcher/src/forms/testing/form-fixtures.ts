import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Application forms in three ATS styles for the form-filling specs, written after the markup real
 * boards serve (ids, names and label mechanics differ on purpose), and a loopback server that takes
 * their multipart posts like a board: required fields checked server-side (422 with the form and an
 * error next to each missing field), uploads recorded with their first bytes, and a confirmation
 * whose presence is a knob ('page' | 'none' | 'hang').
 */
export type FormStyle = 'greenhouse' | 'lever' | 'ashby';
export type ConfirmationMode = 'page' | 'none' | 'hang';

export interface RecordedFile {
  field: string;
  filename: string;
  size: number;
  type: string;
  head: string;
}

export interface RecordedSubmission {
  style: FormStyle;
  fields: Record<string, string>;
  files: RecordedFile[];
  at: number;
}

/** The fields each style's server requires (what a board would refuse without). */
const REQUIRED: Record<FormStyle, string[]> = {
  greenhouse: ['job_application[first_name]', 'job_application[last_name]', 'job_application[email]', 'job_application[phone]', 'job_application[resume]', 'job_application[answers_attributes][0][text_value]', 'job_application[answers_attributes][1][text_value]', 'job_application[answers_attributes][2][boolean_value]'],
  lever: ['resume', 'name', 'email', 'cards[a1b2][field0]'],
  ashby: ['_systemfield_name', '_systemfield_email', '_systemfield_resume', 'f3c9e1d2-authorized'],
};

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
function err(errors: Record<string, string>, name: string): string {
  return errors[name] ? `<span class="error" id="err-${escape(name)}">${escape(errors[name])}</span>` : '';
}

function greenhouse(errors: Record<string, string>): string {
  const q = (id: string, name: string, label: string, input: string, required: boolean) =>
    `<div class="field"><label for="${id}">${label}${required ? ' <span class="asterisk">*</span>' : ''}</label>${input}${err(errors, name)}</div>`;
  const text = (id: string, name: string, label: string, required: boolean, type = 'text') =>
    q(id, name, label, `<input type="${type}" id="${id}" name="${name}" ${required ? 'aria-required="true"' : ''}>`, required);
  return `<!doctype html><html><head><title>Apply — Greenhouse-like</title></head><body>
<header><form action="/search" method="get" class="search"><label for="s">Search jobs</label><input id="s" name="q"><button>Search</button></form></header>
<div id="app_body"><h1>Senior Platform Engineer</h1><p>Thank you for your interest in Lumen Payments.</p>
<form id="application_form" action="/greenhouse" method="post" enctype="multipart/form-data">
<div style="display:none"><label for="hp">Leave this empty</label><input id="hp" name="website_url_hp"></div>
${text('first_name', 'job_application[first_name]', 'First Name', true)}
${text('last_name', 'job_application[last_name]', 'Last Name', true)}
${text('email', 'job_application[email]', 'Email', true)}
${text('phone', 'job_application[phone]', 'Phone', true)}
${q('resume', 'job_application[resume]', 'Resume/CV', '<input type="file" id="resume" name="job_application[resume]" accept=".pdf,.doc,.docx,.txt,.rtf">', true)}
${q('cover_letter', 'job_application[cover_letter]', 'Cover Letter', '<input type="file" id="cover_letter" name="job_application[cover_letter]" accept=".pdf,.doc,.docx,.txt,.rtf">', false)}
${text('job_application_answers_attributes_0_text_value', 'job_application[answers_attributes][0][text_value]', 'Years of experience with TypeScript', true)}
${text('job_application_answers_attributes_1_text_value', 'job_application[answers_attributes][1][text_value]', 'What is your favourite board game?', true)}
${q('job_application_answers_attributes_2_boolean_value', 'job_application[answers_attributes][2][boolean_value]', 'Are you legally authorized to work in Canada?', `<select id="job_application_answers_attributes_2_boolean_value" name="job_application[answers_attributes][2][boolean_value]"><option value="">--</option><option value="1">Yes</option><option value="0">No</option></select>`, true)}
${q('job_application_answers_attributes_3_text_value', 'job_application[answers_attributes][3][text_value]', 'How did you hear about us?', `<select id="job_application_answers_attributes_3_text_value" name="job_application[answers_attributes][3][text_value]"><option value="">Please select</option><option>LinkedIn</option><option>A friend</option><option>Job board</option></select>`, false)}
${text('job_application_answers_attributes_4_text_value', 'job_application[answers_attributes][4][text_value]', 'LinkedIn Profile', false)}
${text('job_application_answers_attributes_5_text_value', 'job_application[answers_attributes][5][text_value]', 'Website', false)}
<fieldset class="demographic"><legend>Gender (optional)</legend>
<label><input type="radio" name="job_application[gender]" value="1"> Male</label><label><input type="radio" name="job_application[gender]" value="2"> Female</label><label><input type="radio" name="job_application[gender]" value="3"> Decline to self-identify</label></fieldset>
<div class="field"><input type="checkbox" id="data_compliance" name="job_application[data_compliance][gdpr_consent_given]" value="1"><label for="data_compliance">I agree to the privacy notice</label></div>
<div id="submit_buttons"><input type="submit" id="submit_app" value="Submit Application"></div>
</form></div></body></html>`;
}

function lever(errors: Record<string, string>): string {
  const item = (name: string, label: string, field: string, required: boolean) =>
    `<li class="application-question"><label><div class="application-label">${label}${required ? '<span class="required">✱</span>' : ''}</div><div class="application-field">${field}</div></label>${err(errors, name)}</li>`;
  return `<!doctype html><html><head><title>Lever-like</title></head><body><div class="content"><div class="section page-centered application-form">
<form method="POST" action="/lever" enctype="multipart/form-data" id="application-form">
<h4>Submit your application</h4><ul>
${item('resume', 'Resume/CV', '<input type="file" name="resume" id="resume-upload-input" required>', true)}
${item('name', 'Full name', '<input type="text" name="name" required>', true)}
${item('email', 'Email', '<input type="email" name="email" required>', true)}
${item('phone', 'Phone', '<input type="text" name="phone">', false)}
${item('org', 'Current company', '<input type="text" name="org">', false)}
</ul><h4>Links</h4><ul>
${item('urls[LinkedIn]', 'LinkedIn URL', '<input type="text" name="urls[LinkedIn]">', false)}
${item('urls[GitHub]', 'GitHub URL', '<input type="text" name="urls[GitHub]">', false)}
</ul><h4>Questions</h4><ul>
<li class="application-question custom-question"><div class="application-label full-width">Are you legally authorized to work in Germany?<span class="required">✱</span></div><div class="application-field full-width"><ul data-qa="multiple-choice">
<li><label><input type="radio" name="cards[a1b2][field0]" value="Yes" required><span class="application-answer-alternative">Yes</span></label></li>
<li><label><input type="radio" name="cards[a1b2][field0]" value="No"><span class="application-answer-alternative">No</span></label></li></ul></div>${err(errors, 'cards[a1b2][field0]')}</li>
<li class="application-question custom-question"><div class="application-label full-width">Years of experience with Kafka</div><div class="application-field full-width"><select name="cards[a1b2][field1]"><option value="">Select...</option><option value="0-1">0-1 years</option><option value="2-4">2-4 years</option><option value="5+">5+ years</option></select></div></li>
<li class="application-question custom-question"><div class="application-label full-width">Which offices could you work from?</div><div class="application-field full-width"><ul data-qa="checkboxes">
<li><label><input type="checkbox" name="cards[a1b2][field2]" value="Berlin"><span>Berlin</span></label></li>
<li><label><input type="checkbox" name="cards[a1b2][field2]" value="Munich"><span>Munich</span></label></li></ul></div></li>
</ul><h4>Additional information</h4><ul>
${item('comments', 'Additional information', '<textarea name="comments" placeholder="Add a cover letter or anything else you want to share."></textarea>', false)}
</ul>
<label><input type="checkbox" name="consent[marketing]" value="true"> Send me future job opportunities</label>
<button type="submit" class="postings-btn template-btn-submit" data-qa="btn-submit">Submit application</button>
</form></div></div></body></html>`;
}

/** Ashby posts with fetch and swaps the form for its confirmation, like its client-rendered pages. */
function ashby(errors: Record<string, string>): string {
  const field = (id: string, label: string, input: string) =>
    `<div class="ashby-application-form-field-entry"><label class="ashby-application-form-question-title" for="${id}">${label}</label>${input}${err(errors, id)}</div>`;
  const yesNo = (id: string, label: string, required: boolean) =>
    `<div class="ashby-application-form-field-entry"><div id="${id}-title" class="ashby-application-form-question-title">${label}</div><div role="radiogroup" aria-labelledby="${id}-title" ${required ? 'aria-required="true"' : ''}>
<input type="radio" id="${id}-y" name="${id}" value="true"><label for="${id}-y">Yes</label><input type="radio" id="${id}-n" name="${id}" value="false"><label for="${id}-n">No</label></div>${err(errors, id)}</div>`;
  return `<!doctype html><html><head><title>Ashby-like</title></head><body><div id="root"><div class="ashby-job-posting-right-pane">
<form class="ashby-application-form-container" action="/ashby" method="post" enctype="multipart/form-data">
${field('_systemfield_name', 'Name', '<input type="text" id="_systemfield_name" name="_systemfield_name" aria-required="true" placeholder="Type here...">')}
${field('_systemfield_email', 'Email', '<input type="email" id="_systemfield_email" name="_systemfield_email" aria-required="true" placeholder="hello@example.com...">')}
${field('_systemfield_phone', 'Phone Number', '<input type="tel" id="_systemfield_phone" name="_systemfield_phone">')}
${field('_systemfield_resume', 'Resume', '<input type="file" id="_systemfield_resume" name="_systemfield_resume" aria-required="true" style="display:none" accept="application/pdf"><button type="button" onclick="document.getElementById(\'_systemfield_resume\').click()">Upload File</button>')}
${field('_systemfield_cover_letter', 'Cover Letter', '<input type="file" id="_systemfield_cover_letter" name="_systemfield_cover_letter" style="display:none"><button type="button">Upload File</button>')}
${field('a7e2-location', 'Location', '<input type="text" id="a7e2-location" name="a7e2-location">')}
${field('b5d1-pg', 'Years of experience with PostgreSQL', '<input type="number" id="b5d1-pg" name="b5d1-pg">')}
${yesNo('f3c9e1d2-authorized', 'Are you legally authorized to work in the United States?', true)}
${yesNo('c8d4-sponsorship', 'Will you now or in the future require visa sponsorship?', false)}
${field('d2e6-game', 'What is your favourite board game?', '<textarea id="d2e6-game" name="d2e6-game"></textarea>')}
<button type="submit" class="ashby-application-form-submit-button">Submit Application</button>
</form></div></div>
<script>
  const form = document.querySelector('form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answer = await fetch('/ashby', { method: 'POST', body: new FormData(form), headers: { accept: 'application/json' } });
    const body = await answer.json();
    if (body.ok) {
      const done = document.createElement('div');
      done.className = 'ashby-application-form-success-container';
      done.innerHTML = body.confirmation ? '<h2>Thank you for applying</h2><p>Application ID: ' + body.confirmation + '</p>' : '<p>Saved.</p>';
      form.replaceWith(done);
    }
  });
</script></body></html>`;
}

const PAGES: Record<FormStyle, (errors: Record<string, string>) => string> = { greenhouse, lever, ashby };

export function formPage(style: FormStyle): string {
  return PAGES[style]({});
}

export interface FormServer {
  url(style: FormStyle): string;
  submissions(): RecordedSubmission[];
  /** What the next posts are answered with. */
  setConfirmation(mode: ConfirmationMode): void;
  close(): Promise<void>;
}

async function readForm(req: http.IncomingMessage): Promise<{ fields: Record<string, string>; files: RecordedFile[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  // Node's fetch Response parses multipart/form-data: no parser of our own.
  const data = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
  const fields: Record<string, string> = {};
  const files: RecordedFile[] = [];
  for (const [name, value] of data.entries()) {
    if (typeof value === 'string') {
      fields[name] = fields[name] === undefined ? value : `${fields[name]},${value}`;
    } else if (value.size > 0 || value.name) {
      const bytes = Buffer.from(await value.arrayBuffer());
      files.push({ field: name, filename: value.name, size: bytes.length, type: value.type, head: bytes.subarray(0, 5).toString('latin1') });
    }
  }
  return { fields, files };
}

export async function startFormServer(): Promise<FormServer> {
  const recorded: RecordedSubmission[] = [];
  let mode: ConfirmationMode = 'page';
  const server = http.createServer((req, res) => {
    const style = (req.url ?? '/').slice(1).split('?')[0] as FormStyle;
    if (!(style in PAGES)) {
      res.writeHead(404).end();
      return;
    }
    const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (req.method !== 'POST') return html(200, PAGES[style]({}));
    void readForm(req).then(({ fields, files }) => {
      const errors: Record<string, string> = {};
      for (const name of REQUIRED[style]) {
        if (!(fields[name] ?? '').trim() && !files.some((f) => f.field === name && f.size > 0)) errors[name] = 'This field is required.';
      }
      const json = req.headers.accept === 'application/json';
      if (Object.keys(errors).length > 0) {
        if (json) return res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, errors }));
        return html(422, PAGES[style](errors));
      }
      recorded.push({ style, fields, files, at: Date.now() });
      const id = `${style.slice(0, 2).toUpperCase()}-${4800 + recorded.length}`;
      if (mode === 'hang') return; // taken, never answered
      if (json) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, confirmation: mode === 'page' ? id : null }));
      if (mode === 'none') return html(200, '<!doctype html><html><body><main><p>Saved.</p></main></body></html>');
      return html(200, `<!doctype html><html><body><main><h1>Thank you for applying!</h1><p>Your application has been received. Confirmation number: ${id}</p></main></body></html>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (style) => `${base}/${style}`,
    submissions: () => recorded.slice(),
    setConfirmation: (next) => {
      mode = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
