import * as vscode from 'vscode';
import { Disposable } from '../disposable.ts';
import type { Lab } from '../model/lab.ts';
import type { Settings } from '../settings.ts';
import { objectDocumentText } from './objectDocument.ts';
import type { ObjectAddress } from './objectUri.ts';
import { OBJECT_SCHEME, objectUriParts, parseObjectUri } from './objectUri.ts';
import { splitKey } from '../../shared/keys.ts';

// Read-only YAML documents for cached objects. Live documents (no rv in the URI) change when the
// informer sees the object change: we fire onDidChange for them, and VS Code asks for the text again.

export function objectUri(address: ObjectAddress): vscode.Uri {
  return vscode.Uri.from(objectUriParts(address));
}

export class ObjectDocumentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;
  private readonly lab: Lab;
  private readonly settings: Settings;

  constructor(lab: Lab, settings: Settings) {
    super();
    this.lab = lab;
    this.settings = settings;
    this._register(vscode.workspace.registerTextDocumentContentProvider(OBJECT_SCHEME, this));
    this._registerFn(
      lab.onDidChange((change) => {
        if (change.kind !== 'informer') return;
        const touched = new Set(change.change.objects);
        // Added/deleted objects are reported per namespace; any open live document of it may be one.
        const namespaces = change.change.namespaces;
        for (const doc of vscode.workspace.textDocuments) {
          if (doc.uri.scheme !== OBJECT_SCHEME) continue;
          const address = parseObjectUri(doc.uri);
          if (!address || address.resourceVersion || address.informerId !== change.informer.id) continue;
          const { namespace } = splitKey(address.key);
          if (touched.has(address.key) || namespaces.has(namespace)) this.changeEmitter.fire(doc.uri);
        }
      }),
    );
    this._register(
      settings.onDidChange((key) => {
        if (key !== 'showSecretValues') return;
        for (const doc of vscode.workspace.textDocuments) if (doc.uri.scheme === OBJECT_SCHEME) this.changeEmitter.fire(doc.uri);
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const address = parseObjectUri(uri);
    if (!address) return `# Not a Controller Lab object address: ${uri.toString()}\n`;
    return objectDocumentText(this.lab, address, this.settings.showSecretValues);
  }
}
