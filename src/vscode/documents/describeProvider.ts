import * as vscode from 'vscode';
import { Disposable } from '../disposable.ts';
import type { Lab } from '../model/lab.ts';
import { describeText } from './describeText.ts';
import { eventsFor, readLive } from './liveObject.ts';
import { objectUriParts, parseObjectUri } from './objectUri.ts';
import type { ObjectAddress } from './objectUri.ts';

// "Describe" documents (read-only, like `kubectl describe`): read from the cluster when opened.

export const DESCRIBE_SCHEME = 'controller-lab-describe';

export function describeUri(address: ObjectAddress): vscode.Uri {
  const parts = objectUriParts(address);
  return vscode.Uri.from({ ...parts, scheme: DESCRIBE_SCHEME, path: parts.path.replace(/\.yaml$/, '.describe') });
}

export class DescribeProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly lab: Lab;

  constructor(lab: Lab) {
    super();
    this.lab = lab;
    this._register(vscode.workspace.registerTextDocumentContentProvider(DESCRIBE_SCHEME, this));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const address = parseObjectUri({ scheme: 'controller-lab', path: uri.path, query: uri.query });
    if (!address) return `Not a Controller Lab object address: ${uri.toString()}\n`;
    try {
      const obj = await readLive(this.lab, address);
      return describeText(obj, await eventsFor(this.lab, address, obj), this.lab.clock.now());
    } catch (err) {
      return `${address.key} could not be read: ${err instanceof Error ? err.message : String(err)}\n`;
    }
  }
}
