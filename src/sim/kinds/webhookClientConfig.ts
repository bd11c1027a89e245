import type { Cause } from '../../shared/apiErrors.ts';
import { validateName } from '../vocabulary/metadataValidation.ts';
import { invalid, isRecord, required } from './fieldErrors.ts';

// A webhook's clientConfig as kube-apiserver checks it (apiserver/pkg/util/webhook ValidateWebhookURL
// with https forced, ValidateWebhookService): exactly one of url and service.

const FORM = '; desired format: https://host[/path]';

/** The parts of a URL as Go's url.Parse splits them (it accepts what WHATWG URL would refuse, such as no scheme). */
function urlParts(url: string): { scheme: string; user: string; host: string; query: string; fragment: string } {
  let rest = url;
  const hash = rest.indexOf('#');
  const fragment = hash >= 0 ? rest.slice(hash + 1) : '';
  if (hash >= 0) rest = rest.slice(0, hash);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest)?.[1] ?? '';
  if (scheme) rest = rest.slice(scheme.length + 1);
  const q = rest.indexOf('?');
  const query = q >= 0 ? rest.slice(q + 1) : '';
  if (q >= 0) rest = rest.slice(0, q);
  let authority = '';
  if (rest.startsWith('//')) authority = rest.slice(2).split('/')[0] ?? '';
  const at = authority.lastIndexOf('@');
  return { scheme: scheme.toLowerCase(), user: at >= 0 ? authority.slice(0, at) : '', host: at >= 0 ? authority.slice(at + 1) : authority, query, fragment };
}

function validateUrl(url: string, field: string): Cause[] {
  const u = urlParts(url);
  const causes: Cause[] = [];
  if (u.scheme !== 'https') causes.push(invalid(field, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host === '') causes.push(invalid(field, u.host, `host must be specified${FORM}`));
  if (u.user !== '') causes.push(invalid(field, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') causes.push(invalid(field, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query !== '') causes.push(invalid(field, u.query, 'query parameters are not permitted in the URL'));
  return causes;
}

function validatePath(path: string, field: string): Cause[] {
  if (path === '/' || path === '') return [];
  if (path === '//') return [invalid(field, path, 'segment[0] may not be empty')];
  const causes: Cause[] = [];
  if (!path.startsWith('/')) causes.push(invalid(field, path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') causes.push(invalid(field, path, `segment[${i}] may not be empty`));
    else for (const c of validateName(step, 'subdomain', field)) causes.push(invalid(field, path, `segment[${i}]: ${c.message.replace(/^Invalid value: "[^"]*": /, '')}`));
  });
  return causes;
}

function validateService(service: Record<string, unknown>, field: string): Cause[] {
  const causes: Cause[] = [];
  if (!service.name) causes.push(required(`${field}.name`, 'service name is required'));
  if (!service.namespace) causes.push(required(`${field}.namespace`, 'service namespace is required'));
  const port = typeof service.port === 'number' ? service.port : 443;
  if (port < 1 || port > 65535) causes.push(invalid(`${field}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (typeof service.path === 'string') causes.push(...validatePath(service.path, `${field}.path`));
  return causes;
}

export function validateWebhookClientConfig(config: Record<string, unknown>, field: string): Cause[] {
  const hasUrl = typeof config.url === 'string';
  const hasService = isRecord(config.service);
  if (hasUrl === hasService) return [required(field, 'exactly one of url or service is required')];
  return hasUrl ? validateUrl(String(config.url), `${field}.url`) : validateService(config.service as Record<string, unknown>, `${field}.service`);
}
