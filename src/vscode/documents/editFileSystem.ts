import * as vscode from 'vscode';
import { Disposable } from '../disposable.ts';
import type { Lab } from '../model/lab.ts';
import { isSecret } from '../redact.ts';
import type { Settings } from '../settings.ts';
import { editableYaml, parseEdited } from './editableObject.ts';
import type { Identity } from './editableObject.ts';
import { readLive, replaceLive } from './liveObject.ts';
import { objectUriParts, parseObjectUri } from './objectUri.ts';
import type { ObjectAddress } from './objectUri.ts';

// Edit an object as a file: opening reads it from the cluster, saving PUTs it back (the
// resourceVersion in the text makes a stale save a 409 Conflict, which VS Code shows as the save
// failing, with the API's message). The text keeps the resourceVersion it was opened at; a save
// that starts from it carries the version our own last save produced, so saving twice works while
// a change by anyone else in between still conflicts.

export const EDIT_SCHEME = 'controller-lab-edit';

export function editUri(address: ObjectAddress): vscode.Uri {
  return vscode.Uri.from({ ...objectUriParts(address), scheme: EDIT_SCHEME });
}

interface Held {
  text: Uint8Array;
  identity: Identity;
  mtime: number;
}

export class EditFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  /** Never fired: an open edit document is not reloaded under the user's typing. */
  readonly onDidChangeFile = this.changeEmitter.event;
  private readonly held = new Map<string, Held>();
  /**
   * Per document: resourceVersions our own saves superseded → the version the cluster has since
   * given them. A text still carrying an old one of ours is saved at the newest, so saving twice
   * works; a change by anyone else moves the version past it, and the save is a 409.
   */
  private readonly superseded = new Map<string, Map<string, string>>();
  private readonly lab: Lab;
  private readonly settings: Settings;
  /** Saves applied (tests wait for it). */
  saves = 0;

  constructor(lab: Lab, settings: Settings) {
    super();
    this.lab = lab;
    this.settings = settings;
    this._register(vscode.workspace.registerFileSystemProvider(EDIT_SCHEME, this, { isCaseSensitive: true }));
  }

  private address(uri: vscode.Uri): ObjectAddress {
    const address = parseObjectUri({ scheme: 'controller-lab', path: uri.path, query: uri.query });
    if (!address) throw vscode.FileSystemError.FileNotFound(uri);
    return address;
  }

  private async load(uri: vscode.Uri): Promise<Held> {
    const obj = await readLive(this.lab, this.address(uri));
    if (isSecret(obj) && !this.settings.showSecretValues) {
      throw vscode.FileSystemError.NoPermissions('Secrets open for editing only with the setting controllerLab.showSecretValues on (their values would show)');
    }
    const text = new TextEncoder().encode(`# Save to apply to the cluster (a PUT at this resourceVersion: a newer change makes it a 409 Conflict).\n${editableYaml(obj)}`);
    const previous = this.held.get(uri.toString());
    // The same text keeps its time: VS Code refuses to save over a file whose mtime moved on.
    const same = previous !== undefined && Buffer.from(previous.text).equals(Buffer.from(text));
    const held: Held = {
      text,
      identity: { apiVersion: obj.apiVersion ?? '', kind: obj.kind ?? '', namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' },
      mtime: same ? previous.mtime : Math.max(Date.now(), (previous?.mtime ?? 0) + 1),
    };
    this.held.set(uri.toString(), held);
    return held;
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const held = this.held.get(uri.toString()) ?? (await this.load(uri));
    return { type: vscode.FileType.File, ctime: held.mtime, mtime: held.mtime, size: held.text.byteLength };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return (await this.load(uri)).text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const held = this.held.get(uri.toString()) ?? (await this.load(uri));
    const obj = parseEdited(new TextDecoder().decode(content), held.identity);
    const ours = this.superseded.get(uri.toString()) ?? new Map<string, string>();
    const from = obj.metadata.resourceVersion ?? '';
    const at = ours.get(from) ?? from;
    obj.metadata.resourceVersion = at || undefined;
    const saved = await replaceLive(this.lab, this.address(uri), obj);
    this.saves++;
    const now = saved.metadata.resourceVersion ?? '';
    for (const [old, current] of ours) if (current === at) ours.set(old, now);
    ours.set(from, now);
    ours.set(at, now);
    this.superseded.set(uri.toString(), ours);
    // The file is now what VS Code wrote; its time moves on so VS Code's own bookkeeping agrees.
    this.held.set(uri.toString(), { ...held, text: content, mtime: Math.max(Date.now(), held.mtime + 1) });
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
