import { randomBytes } from 'node:crypto';

// The timeline's HTML shell: a strict Content-Security-Policy (nothing but our nonce'd script and
// our stylesheet; no remote content), one root element the app fills, and the bundle.

export interface TimelineHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce?: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function timelineHtml(input: TimelineHtmlInput): string {
  const nonce = input.nonce ?? newNonce();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(input.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}" nonce="${nonce}">
<title>Informer Timeline</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>`;
}
