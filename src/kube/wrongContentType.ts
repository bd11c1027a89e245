import type { Readable } from 'node:stream';
import { readAll, type StallGuard } from './request.ts';

// A watch answered with something other than JSON: most often not the API server at all, but a
// proxy or load balancer in between answering with its own page (HTML, with status 200). Its raw
// bytes say nothing on a terminal (or mangle it); what came, a short excerpt and where to look do.

/** What is read of such a body: enough for the excerpt and its title, never a stream's worth. */
const READ_LIMIT = 4096;
const EXCERPT_CHARS = 120;

/** Whether a watch answer's Content-Type is one a JSON watch stream comes with (or none at all). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  return /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

/** A short, escaped (quoted, control characters visible), length-capped excerpt of a body. */
export function bodyExcerpt(text: string, maxChars = EXCERPT_CHARS): string {
  const cut = [...text.trim()];
  const shown = cut.length > maxChars ? `${cut.slice(0, maxChars).join('')}…` : cut.join('');
  return JSON.stringify(shown);
}

export class WrongContentTypeError extends Error {
  constructor(what: string, statusCode: number, contentType: string, body: string, complete: boolean) {
    const bytes = Buffer.byteLength(body);
    super(
      `${what} was answered ${statusCode} with Content-Type ${contentType}, not a watch stream (application/json): ` +
        `${bodyExcerpt(body)} (${bytes}${complete ? '' : ' or more'} bytes); a proxy or load balancer between here and the API server may have answered: ` +
        "check the kubeconfig's server and proxy-url and HTTPS_PROXY",
    );
    this.name = 'WrongContentTypeError';
  }
}

/** Reads the start of the body (then drops the connection) and makes the error that names it. */
export async function wrongContentType(what: string, statusCode: number, contentType: string, body: Readable, stall: StallGuard | undefined): Promise<WrongContentTypeError> {
  let text = '';
  let complete = false;
  try {
    text = await readAll(body, READ_LIMIT, stall);
    complete = text.length <= READ_LIMIT && body.readableEnded;
  } catch {
    // Cut or stalled: the content type alone says enough.
  }
  body.destroy();
  return new WrongContentTypeError(what, statusCode, contentType, text, complete);
}
