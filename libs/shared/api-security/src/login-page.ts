const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Where to go after logging in: a path on this site only. Anything else ('//evil.example', a full
 * URL, a backslash trick) becomes '/', so the login form is no open redirect. Visible ASCII only:
 * browsers drop tabs and newlines from a URL ('/\t/evil' would become '//evil'), and node refuses a
 * Location header holding a control character or anything beyond Latin-1 (that was a 500, #39). The
 * paths the API itself sends here (a URL's pathname and search) are percent-encoded ASCII already.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000 || !/^\/[\x21-\x7e]*$/.test(next) || next.startsWith('//') || next.includes('\\')) return '/';
  return next;
}

/**
 * GET /login: a plain form (no script, so the CSP needs no exception) that POSTs the token to
 * /v1/auth/login, which sets the session cookie and sends the browser on to `next`.
 */
export function loginPage(opts: { next: string; failed: boolean; notice?: string }): string {
  const alert = opts.notice ?? (opts.failed ? 'That token is not the API token. Try again.' : '');
  const failed = alert ? `<p role="alert" style="color:#b00020">${escapeHtml(alert)}</p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>jobctrl: log in</title><link rel="icon" href="data:,"></head>
<body style="font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;line-height:1.5">
<h1>jobctrl</h1>
<p>This API requires its token (the value of the environment variable <code>api_token_env</code> names in config.json).</p>
${failed}
<form method="post" action="/v1/auth/login">
<input type="hidden" name="next" value="${escapeHtml(opts.next)}">
<label for="token">API token</label><br>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus style="width:100%;padding:.4rem">
<p><button type="submit">Log in</button></p>
</form>
</body></html>`;
}
