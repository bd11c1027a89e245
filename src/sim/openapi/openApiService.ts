import { createHash } from 'node:crypto';
import type { KubeObject } from '../../shared/k8s.ts';
import type { ResourceInfo } from '../vocabulary/resourceInfo.ts';
import { buildOpenApiDocuments } from './documents.ts';
import { encodeDocument } from './gnosticV2.ts';
import type { Schema } from './schema.ts';

// The documents the cluster publishes, rebuilt only when a CustomResourceDefinition changed (the
// built-in part never does), with the hashes kube-apiserver's caching headers and the v3 index's
// `?hash=` URLs are made of.

export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** What the documents are made of: the resources served now and the CRDs stored now. */
export interface OpenApiSource {
  servedResources(): ResourceInfo[];
  customResourceDefinitions(): readonly Readonly<KubeObject>[];
}

export interface Rendered {
  body: Buffer;
  /** Uppercase hex sha512 of the body, as the API server computes it. */
  hash: string;
}

interface Built {
  fingerprint: string;
  v2Doc: Schema;
  v2Json: Rendered;
  v2Protobuf: Rendered | undefined;
  v3: Map<string, { doc: Schema; rendered: Rendered | undefined }>;
  v3Index: Rendered | undefined;
}

function rendered(body: Buffer): Rendered {
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

export class OpenApiService {
  private built: Built | undefined;
  private readonly source: OpenApiSource;
  private readonly version: string;

  constructor(source: OpenApiSource, version: string) {
    this.source = source;
    this.version = version;
  }

  private current(): Built {
    const crds = this.source.customResourceDefinitions();
    const fingerprint = crds.map((c) => `${c.metadata.uid}@${c.metadata.resourceVersion}`).join(',');
    if (this.built?.fingerprint === fingerprint) return this.built;
    const docs = buildOpenApiDocuments(this.source.servedResources(), crds, this.version);
    this.built = {
      fingerprint,
      v2Doc: docs.v2,
      v2Json: rendered(Buffer.from(JSON.stringify(docs.v2))),
      v2Protobuf: undefined,
      v3: new Map([...docs.v3].map(([gv, doc]) => [gv, { doc, rendered: undefined }])),
      v3Index: undefined,
    };
    return this.built;
  }

  v2(protobuf: boolean): Rendered {
    const built = this.current();
    if (!protobuf) return built.v2Json;
    // Encoded from the same document, on first demand (kubectl asks for this form, scripts for JSON).
    built.v2Protobuf ??= rendered(encodeDocument(built.v2Doc));
    return built.v2Protobuf;
  }

  /** A group version's v3 document (`api/v1`, `apis/apps/v1`), or undefined when none is served. */
  v3(groupVersion: string): Rendered | undefined {
    const entry = this.current().v3.get(groupVersion);
    if (!entry) return undefined;
    entry.rendered ??= rendered(Buffer.from(JSON.stringify(entry.doc)));
    return entry.rendered;
  }

  /** /openapi/v3: every group version with the URL (hash included) of its current document. */
  v3Index(): Rendered {
    const built = this.current();
    if (!built.v3Index) {
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const gv of built.v3.keys()) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${this.v3(gv)!.hash}` };
      built.v3Index = rendered(Buffer.from(JSON.stringify({ paths })));
    }
    return built.v3Index;
  }
}
