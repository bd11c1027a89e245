// Types for `import { startSim } from 'controller-lab/simtest'`: a simulated cluster for a
// controller's tests (TypeScript or JavaScript, on any test runner). Controller Lab's
// src/simtest/index.ts implements these very declarations (its typecheck fails if they part).

/** A Kubernetes object as a manifest gives it. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface SimOptions {
  /** Files or folders of YAML/JSON (CRDs, samples) applied before startSim resolves; CRDs are Established first. */
  manifests?: string[];
  /** Run the sim's Deployment, ReplicaSet, StatefulSet, DaemonSet and Job controllers and fake Nodes (`sim --workloads`). */
  workloads?: boolean;
  /** How long to wait for the sim to serve (default 30000 ms). */
  startTimeoutMs?: number;
}

export interface RunControllerOptions {
  /** Give up after this long (default 60). A Go program's build is not counted. */
  timeoutSeconds?: number;
  /** More arguments for `controller-lab run` (`['--workers', '2']`; a Go program's own after `'--'`). */
  args?: string[];
  /** The folder the controller's file is relative to (default: the current one). */
  cwd?: string;
}

/** One finished reconcile, as `controller-lab run --trace` writes it. */
export interface Reconcile {
  seq: number;
  controller: string;
  kind: string;
  /** `namespace/name` (or `name`). */
  key: string;
  trigger: { type: string; kind: string; key: string; resourceVersion: string; via?: string }[];
  writes: { verb: string; kind: string; namespace?: string; name: string; resourceVersion?: string; error?: string; changed?: boolean }[];
  result?: { requeue?: boolean; requeueAfter?: number };
  error?: { message: string; terminal?: boolean; timedOut?: boolean };
  durationMs: number;
  [field: string]: unknown;
}

export interface RunResult {
  reconciles: Reconcile[];
  /** What `controller-lab run` printed. */
  output: string;
}

/** `run` ended with keys still failing, the controller exited or blocked, or the timeout ran out. */
export declare class ControllerRunError extends Error {
  readonly result: RunResult;
  readonly exitCode: number | null;
  constructor(message: string, exitCode: number | null, result: RunResult);
}

export interface Sim {
  /** The admin's kubeconfig (0600, removed by stop()): for @kubernetes/client-node's `loadFromFile`, kubectl or a Go program. */
  readonly kubeconfig: string;
  /** The API server's URL (https://127.0.0.1:PORT). */
  readonly server: string;
  /** Server-side applies objects, or the objects of YAML text, CRDs first (waited for until Established). */
  apply(objects: KubeObject | KubeObject[] | string): Promise<KubeObject[]>;
  /** The object, or undefined when there is none. */
  get(apiVersion: string, kind: string, name: string, namespace?: string): Promise<KubeObject | undefined>;
  /** The objects of a kind, in one namespace or (without one) all. */
  list(apiVersion: string, kind: string, namespace?: string): Promise<KubeObject[]>;
  /** Deletes an object (in the background, as kubectl); false when there was none. */
  delete(apiVersion: string, kind: string, name: string, namespace?: string): Promise<boolean>;
  /**
   * Runs the controller (a TypeScript/JavaScript module, or a Go program with controllerlab.Wrap)
   * against this cluster until it is idle, and answers its reconciles. Rejects with
   * ControllerRunError, carrying the output, unless every key was reconciled.
   */
  runController(file: string, options?: RunControllerOptions): Promise<RunResult>;
  /** What the sim printed (its last 64 KB). */
  readonly log: string;
  /** Stops the sim and removes its kubeconfig. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts `controller-lab sim` (of this package) on a free loopback port and applies `manifests`. */
export declare function startSim(options?: SimOptions): Promise<Sim>;
