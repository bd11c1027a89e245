import http from 'node:http';
import type https from 'node:https';
import { readFileSync } from 'node:fs';
import type { ClusterEntry as Cluster, ResolvedContext, UserEntry as User } from './kubeconfig.ts';
import { environmentProxy } from './environmentProxy.ts';
import { CredentialError, KubeconfigError } from './errors.ts';
import { checkClientCertificate } from './clientCertificate.ts';
import { checkCertificateAuthority } from './certificateAuthority.ts';
import { ExecCredentialSource } from './execCredential.ts';
import type { ExecConfig } from './execCredential.ts';
import type * as FullKubeConfig from '@kubernetes/client-node/dist/config.js';
import type * as SocksProxy from 'socks-proxy-agent';

// How one kubeconfig context turns into Node request options: TLS material, credentials, a pooled
// keep-alive agent (or a proxy agent). client-node's authenticators mint the credentials (exec
// plugins, token files, OIDC…); the bytes then travel over Node's own http/https, which we stream.

/** The client-node Authenticator shape (auth.d.ts), restated so that we import it only when needed. */
interface Authenticator {
  isAuthProvider(user: User): boolean;
  applyAuthentication(user: User, opts: https.RequestOptions): Promise<void>;
}

export interface TransportOptions {
  /** Gives up connecting after this long (kubectl: no limit; we prefer a clear error). Default 15 s. */
  connectTimeoutMs?: number;
  userAgent?: string;
  /**
   * A request whose answer does not start, or a list whose body stops arriving, for this long is
   * aborted (StallError) and left to the caller's retry. Default 60 s: kube-apiserver ends any
   * non-watch request after 60 s itself, so a healthy server has said something by then. Watches
   * are exempt once accepted (the informer has its own idle deadline for them).
   */
  stallTimeoutMs?: number;
  /**
   * How often a request answered 429 or 5xx with a Retry-After header is sent again, after waiting
   * as asked, 30 s at most (client-go's rest client: 10 times). 0 turns this off.
   */
  maxRetries?: number;
  /** Told of each such wait before it starts (the CLI prints a warning). */
  onRetry?: (retry: RetryNotice) => void;
  /**
   * An exec credential plugin that has not answered after this long is named through onWarning
   * (the request keeps waiting, as client-go's does: a login may take a while). Default 10 s.
   */
  credentialWarnAfterMs?: number;
  /**
   * An exec credential plugin still running after this long is stopped and the request fails with
   * a CredentialError naming it (client-go waits forever). Default 60 s, 5 min while the plugin
   * has the terminal (a person may be typing a password).
   */
  credentialTimeoutMs?: number;
  /**
   * A request whose answer has not started after this long is named through onWarning, once (it
   * keeps waiting until stallTimeoutMs): a silent minute looks like a hang. Default 10 s.
   */
  slowAnswerWarnAfterMs?: number;
  /** Told of what keeps a request waiting without failing it (the CLI prints a warning). */
  onWarning?: (message: string) => void;
  /**
   * The longest watch event line accepted, in characters; a longer one closes the watch with
   * EventTooLargeError. Default 16 MiB, client-go's limit (its streaming decoder's maxBytes): over
   * five times kube-apiserver's 3 MiB request limit and ten times etcd's 1.5 MiB value limit, so no
   * real object reaches it, while a broken stream cannot grow one string to V8's 512 MiB ceiling.
   */
  maxEventLength?: number;
  /**
   * The environment HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read from when the kubeconfig names no
   * proxy-url (loadCluster reads KUBECONFIG from it too). Default process.env.
   */
  env?: NodeJS.ProcessEnv;
}

/** A request that will be sent again once the server's Retry-After has passed. */
export interface RetryNotice {
  method: string;
  path: string;
  code: number;
  reason: string;
  message: string;
  /** How long we wait: as the server asked, up to MAX_RETRY_AFTER_MS. */
  waitMs: number;
  /** What the server asked for (Retry-After), longer than waitMs when capped. */
  askedMs: number;
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
}

export const DEFAULT_STALL_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 10;
export const DEFAULT_MAX_EVENT_LENGTH = 16 * 1024 * 1024;
export const DEFAULT_CREDENTIAL_WARN_AFTER_MS = 10_000;
export const DEFAULT_SLOW_ANSWER_WARN_AFTER_MS = 10_000;
export const DEFAULT_CREDENTIAL_TIMEOUT_MS = 60_000;
/** Requests answered in full that are sent at once; more wait their turn (see requestPlace). */
export const MAX_REQUESTS_IN_FLIGHT = 100;
export const DEFAULT_INTERACTIVE_CREDENTIAL_TIMEOUT_MS = 300_000;

export class Transport {
  readonly server: URL;
  readonly context: ResolvedContext;
  readonly connectTimeoutMs: number;
  readonly stallTimeoutMs: number;
  readonly maxRetries: number;
  readonly maxEventLength: number;
  readonly onRetry: ((retry: RetryNotice) => void) | undefined;
  readonly slowAnswerWarnAfterMs: number;
  private readonly onWarning: ((message: string) => void) | undefined;
  private readonly credentialWarnAfterMs: number;
  private readonly credentialTimeoutMs: number | undefined;
  private readonly userAgent: string;
  /** The proxy every request goes through, or undefined for direct connections. */
  private readonly proxy: string | undefined;
  private agent: http.Agent | undefined;
  private authenticator: Promise<Authenticator | undefined> | undefined;
  private tlsMaterialChecked = false;
  private credentialWarned = false;
  private requestsInFlight = 0;
  private readonly requestsWaiting: (() => void)[] = [];
  private lastSlowAnswerWarning = -Infinity;
  private slowAnswersNotNamed = 0;

  constructor(context: ResolvedContext, options: TransportOptions = {}) {
    this.context = context;
    this.server = new URL(context.cluster.server);
    if (this.server.protocol !== 'http:' && this.server.protocol !== 'https:') {
      throw new KubeconfigError(`cluster "${context.cluster.name}" server must be http(s): ${context.cluster.server}`);
    }
    this.connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
    this.stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.maxEventLength = options.maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
    this.onRetry = options.onRetry;
    this.onWarning = options.onWarning;
    this.credentialWarnAfterMs = options.credentialWarnAfterMs ?? DEFAULT_CREDENTIAL_WARN_AFTER_MS;
    this.credentialTimeoutMs = options.credentialTimeoutMs;
    this.slowAnswerWarnAfterMs = options.slowAnswerWarnAfterMs ?? DEFAULT_SLOW_ANSWER_WARN_AFTER_MS;
    this.userAgent = options.userAgent ?? 'controller-lab';
    // client-go's order: the kubeconfig's proxy-url, else the environment. Decided here, so that a
    // malformed proxy variable fails loading the cluster rather than every request.
    this.proxy = context.cluster.proxyUrl || environmentProxy(this.server, options.env ?? process.env);
  }

  get secure(): boolean {
    return this.server.protocol === 'https:';
  }

  /** The request function for this server's protocol. */
  get requestFn(): typeof https.request {
    return this.secure ? httpsModule().request : (http.request as unknown as typeof https.request);
  }

  /**
   * Fresh options for one request: host, TLS, credentials (asked of the plugin each time, which
   * caches until expiry), agent. The caller adds method, path and its own headers.
   */
  async prepare(): Promise<https.RequestOptions> {
    const { cluster, user } = this.context;
    const opts: https.RequestOptions = {
      protocol: this.server.protocol,
      hostname: this.server.hostname.replace(/^\[|\]$/g, ''),
      port: this.server.port || (this.secure ? 443 : 80),
      headers: { 'User-Agent': this.userAgent },
    };
    applyTls(cluster, user, opts);
    if (this.secure && !this.tlsMaterialChecked) {
      checkCertificateAuthority(cluster.name, cluster.caFile ? `certificate-authority ${cluster.caFile}` : 'certificate-authority-data', opts.ca as Buffer | undefined);
      checkClientCertificate(process.getBuiltinModule('node:tls'), user.name, {
        cert: opts.cert as Buffer | undefined,
        key: opts.key as Buffer | undefined,
        certField: user.certFile ? `client-certificate ${user.certFile}` : 'client-certificate-data',
        keyField: user.keyFile ? `client-key ${user.keyFile}` : 'client-key-data',
      });
      this.tlsMaterialChecked = true;
    }
    await this.applyCredentials(user, opts);
    opts.agent = await this.agentFor(cluster, opts);
    return opts;
  }

  /** The path prefix of the server URL (e.g. a proxy's `/k8s/clusters/c-1`), without trailing slash. */
  get basePath(): string {
    return this.server.pathname.replace(/\/$/, '');
  }

  /** Tells the caller's onWarning of something that keeps a request waiting without failing it. */
  warn(message: string): void {
    this.onWarning?.(message);
  }

  /**
   * warn, for a request whose answer is slow: once per slowAnswerWarnAfterMs at most. A controller
   * that sends thousands of writes at once would otherwise print a line for each of them.
   */
  warnSlowAnswer(message: string): void {
    const now = performance.now();
    if (now - this.lastSlowAnswerWarning < this.slowAnswerWarnAfterMs) {
      this.slowAnswersNotNamed++;
      return;
    }
    const more = this.slowAnswersNotNamed;
    this.slowAnswersNotNamed = 0;
    this.lastSlowAnswerWarning = now;
    this.warn(more > 0 ? `${message}; ${more} more request(s) waited as long since the last such warning` : message);
  }

  /**
   * Waits for one of MAX_REQUESTS_IN_FLIGHT places for a request that is answered in full (not a
   * watch nor a streamed list); resolves with the function that gives it back. Thousands of
   * writes sent at once each opened a connection of their own, whose TLS handshakes took longer
   * than the connect timeout together: most failed `timed out connecting`. client-go sends them
   * over one HTTP/2 connection (at most its server's stream limit at once) and throttles them.
   */
  async requestPlace(): Promise<() => void> {
    if (this.requestsInFlight >= MAX_REQUESTS_IN_FLIGHT) await new Promise<void>((resolve) => this.requestsWaiting.push(resolve));
    else this.requestsInFlight++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.requestsWaiting.shift();
      if (next) next();
      else this.requestsInFlight--;
    };
  }

  /** Closes pooled connections. */
  close(): void {
    this.agent?.destroy();
  }

  private async applyCredentials(user: User, opts: https.RequestOptions): Promise<void> {
    const headers = opts.headers as Record<string, string>;
    if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
    if (user.username) opts.auth = `${user.username}:${user.password ?? ''}`;
    const authenticator = await (this.authenticator ??= this.execAuthenticator(user) ?? pickAuthenticator(user));
    if (authenticator) {
      const what = user.exec ? `exec credential plugin "${String(user.exec.command)}"` : `auth provider "${String(user.authProvider?.name)}"`;
      // A plugin that hangs would otherwise leave the user looking at nothing at all.
      // Once per transport: concurrent requests wait on one plugin run.
      const slow = setTimeout(() => {
        if (this.credentialWarned) return;
        this.credentialWarned = true;
        this.onWarning?.(`${what} for user "${user.name}" has not given a credential after ${this.credentialWarnAfterMs / 1000} s: still waiting (a plugin that logs in interactively needs a terminal); run it alone to see what it waits for`);
      }, this.credentialWarnAfterMs);
      try {
        await authenticator.applyAuthentication(user, opts);
      } catch (err) {
        const why = err instanceof Error ? err.message.trim().split('\n', 1)[0] : String(err);
        throw new CredentialError(`${what} for user "${user.name}" failed: ${why || 'no output'}`, err);
      } finally {
        clearTimeout(slow);
      }
    }
    if (user.token) headers.Authorization = `Bearer ${user.token.trim()}`;
  }

  /** The kubeconfig's exec plugin, run as client-go runs it (execCredential.ts), if it names one. */
  private execAuthenticator(user: User): Promise<Authenticator> | undefined {
    const exec = (user.exec ?? user.authProvider?.config?.exec) as ExecConfig | undefined;
    if (!exec) return undefined;
    const what = `exec credential plugin "${String(exec.command)}"`;
    const source = new ExecCredentialSource(exec, {
      stdinIsTerminal: process.stdin.isTTY === true,
      timeoutMs: (interactive) => this.credentialTimeoutMs ?? (interactive ? DEFAULT_INTERACTIVE_CREDENTIAL_TIMEOUT_MS : DEFAULT_CREDENTIAL_TIMEOUT_MS),
      onStderrLine: (line) => this.onWarning?.(`${what}: ${line}`),
    });
    return Promise.resolve({
      isAuthProvider: () => true,
      async applyAuthentication(_u, opts) {
        const status = await source.credential();
        if (status.clientCertificateData) opts.cert = status.clientCertificateData;
        if (status.clientKeyData) opts.key = status.clientKeyData;
        if (status.token) (opts.headers as Record<string, string>).Authorization = `Bearer ${status.token}`;
      },
    });
  }

  private async agentFor(cluster: Cluster, opts: https.RequestOptions): Promise<http.Agent> {
    if (this.agent) return this.agent;
    const base = { keepAlive: true, timeout: 0 };
    if (this.proxy) {
      this.agent = await proxyAgent(this.proxy, cluster, this.secure, { ...base, ...tlsOf(opts) });
    } else {
      this.agent = this.secure ? new (httpsModule().Agent)(base) : new http.Agent(base);
    }
    return this.agent;
  }
}

/**
 * node:https, loaded with the first request to an https server: TLS and crypto are ~9 ms of a
 * command's start-up, which a server spoken to over plain http (kubectl proxy) never needs.
 */
function httpsModule(): typeof https {
  return process.getBuiltinModule('node:https');
}

function applyTls(cluster: Cluster, user: User, opts: https.RequestOptions): void {
  if (cluster.skipTLSVerify) opts.rejectUnauthorized = false;
  if (cluster.tlsServerName) opts.servername = cluster.tlsServerName;
  const ca = material(cluster.caFile, cluster.caData, `cluster "${cluster.name}" certificate-authority`);
  if (ca) opts.ca = ca;
  const cert = material(user.certFile, user.certData, `user "${user.name}" client-certificate`);
  if (cert) opts.cert = cert;
  const key = material(user.keyFile, user.keyData, `user "${user.name}" client-key`);
  if (key) opts.key = key;
}

function material(file: string | undefined, data: string | undefined, what: string): Buffer | undefined {
  if (file) {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new KubeconfigError(`cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return data ? Buffer.from(data, 'base64') : undefined;
}

function tlsOf(opts: https.RequestOptions): https.AgentOptions {
  const { ca, cert, key, rejectUnauthorized, servername } = opts;
  return { ca, cert, key, rejectUnauthorized, servername };
}

// The same choice client-node's KubeConfig makes, loading only the authenticator needed: exec
// plugins and token files are light; OIDC, Azure and GCP providers come with client-node's whole
// KubeConfig, so they load it (lazily, and only for users that have such a provider).
async function pickAuthenticator(user: User): Promise<Authenticator | undefined> {
  if (!user.authProvider) return undefined;
  if (user.authProvider.config?.tokenFile) {
    const { FileAuth } = await import('@kubernetes/client-node/dist/file_auth.js');
    return new FileAuth();
  }
  // An OIDC provider whose id-token is at hand: use it, as client-go does while it is valid.
  const idToken = user.authProvider.name === 'oidc' ? user.authProvider.config?.['id-token'] : undefined;
  if (typeof idToken === 'string' && idToken) {
    return {
      isAuthProvider: () => true,
      applyAuthentication: async (_u, opts) => void ((opts.headers as Record<string, string>).Authorization = `Bearer ${idToken}`),
    };
  }
  const { KubeConfig } = (await importUnbundled('@kubernetes/client-node/dist/config.js')) as typeof FullKubeConfig;
  const kc = new KubeConfig();
  // Only the user matters here: the options it fills are a scratch copy whose headers we keep.
  kc.loadFromClusterAndUser({ name: 'auth', server: 'https://auth.invalid', skipTLSVerify: false }, user);
  return {
    isAuthProvider: () => true,
    async applyAuthentication(_u, opts) {
      const scratch: https.RequestOptions = { headers: {} };
      await kc.applyToHTTPSOptions(scratch);
      Object.assign(opts.headers as Record<string, string>, scratch.headers);
    },
  };
}

// Rare paths (refreshing OIDC, Azure/GCP providers, SOCKS proxies) need modules that would triple
// the bundles; a computed specifier keeps esbuild from inlining them, and Node loads them from
// node_modules on first use.
function importUnbundled(specifier: string): Promise<unknown> {
  return import(specifier);
}

async function proxyAgent(proxy: string, cluster: Cluster, secure: boolean, options: https.AgentOptions): Promise<http.Agent> {
  if (proxy.startsWith('socks')) {
    const { SocksProxyAgent } = (await importUnbundled('socks-proxy-agent')) as typeof SocksProxy;
    // Go's SOCKS5 dialer lets the proxy resolve the server's name (socks-proxy-agent's socks5h);
    // behind a bastion, that name often resolves only on the far side.
    return new SocksProxyAgent(proxy.replace(/^socks5:/, 'socks5h:'), options);
  }
  // Environment values are checked when read (environmentProxy), so only a proxy-url gets here.
  if (!proxy.startsWith('http')) throw new KubeconfigError(`cluster "${cluster.name}" has an unsupported proxy-url: ${proxy}`);
  const { HttpProxyAgent, HttpsProxyAgent } = await import('hpagent');
  return secure ? new HttpsProxyAgent({ ...options, proxy }) : new HttpProxyAgent({ ...options, proxy });
}
