import type { Probe } from '../informer/index.ts';
import { INSTALL_CRD_HINT } from '../controllerProtocol/index.ts';

// What `run` and the debugger say about an informer that cannot list or watch (a 403 from RBAC, a
// kind the cluster does not serve): its error once, as client-go's reflector logs it, not again at
// each retry — again only when the error changes or after the informer recovered.

export class InformerErrors {
  private readonly last = new Map<string, string>();
  /** Informers whose kind the cluster does not serve, by informer name: the message said. */
  readonly unserved = new Map<string, string>();

  /** The line to print for this probe, if any. */
  lineFor(probe: Probe): string | undefined {
    if (probe.kind === 'synced' || probe.kind === 'watchOpen') {
      this.last.delete(probe.informer);
      this.unserved.delete(probe.informer);
      return undefined;
    }
    if (probe.kind !== 'error' || this.last.get(probe.informer) === probe.message) return undefined;
    this.last.set(probe.informer, probe.message);
    if (probe.reason === 'NotServed') {
      this.unserved.set(probe.informer, probe.message);
      return `${probe.message}; ${INSTALL_CRD_HINT}`;
    }
    return `informer ${probe.informer}: ${probe.message}${probe.code ? ` (${probe.code})` : ''}; retrying with backoff`;
  }

  /** Informers that reported an error and have not synced since: name → their last message. */
  failing(): Map<string, string> {
    return new Map(this.last);
  }
}
