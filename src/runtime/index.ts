// The controller runtime's public surface: run a user controller (ControllerSession), subscribe to
// what it does (RuntimeEvents), and find the sessions running in this process (controllerSessions).
//
// Live inspection, for the views: `controllerSessions.onDidStart(session => session.on(...))` with
//   reconcileStart / reconcileEnd  { record: ReconcileRecord }  key, trigger (event RVs), writes (their
//                                  RVs), outcome, requeue decision, duration — the causal chain
//   queue   { snapshot: QueueSnapshot }  depth, per-key state queued/processing/waiting, retries, backoff
//   probe   { probe: Probe }             the controller's informer probes (list/watch/event/delta…)
//   delta   { delta: CacheDelta }        every cache change, with the object
//   log     { line, record? }            ctx.log lines;  idle { idle }  ready / synced / fatal / exit
// `session.recorder` holds recent records; `session.cache.at(record.cacheSeq)` is the cache as it was.

export { ControllerSession, DEFAULT_RECONCILE_TIMEOUT_MS } from './controllerSession.ts';
export type { ControllerSessionOptions, RuntimeEvents } from './controllerSession.ts';
export { controllerSessions } from './controllerSession.ts';
export { killEveryControllerGroup } from './processGroup.ts';
export type { SessionList } from './sessionRegistry.ts';
// What a session's events carry: the records and messages of the controller protocol.
export type { CallSite, EventFate, EventFateKind, ReconcileRecord, StaleRead, TriggerDelta, WriteRecord, LogLine, QueueSnapshot, QueueKeySnapshot, QueueKeyState } from '../controllerProtocol/index.ts';
export type { ReconcileOutcome, RequeueDecision, CacheDelta, ControllerShape, HostInit, HostMessage, ParentMessage } from '../controllerProtocol/index.ts';
export { defineController, TerminalError } from '../controllerProtocol/index.ts';
export type { ControllerSpec, ReconcileContext, ReconcileRequest, ReconcileResult } from '../controllerProtocol/index.ts';
export type { CacheChange, CacheView } from './cacheHistory.ts';
export { launchSim } from './simLauncher.ts';
export type { LaunchedSim } from './simLauncher.ts';
export { traceLine, describeRecord, describeStaleRead } from './traceFormat.ts';
export { InformerErrors } from './informerErrors.ts';
export { formatWhy, parseWhyTarget, whyNot } from './whyNot.ts';
export type { ChangeAnswer, ControllerAnswer, WhyAnswer, WhySource, WhyStep, WhyTarget, WhyVerdict } from './whyNot.ts';
export { FateLog } from './fateLog.ts';
export { InformerRefusals } from './informerRefusals.ts';
export { reportRbacHints } from './rbacHints.ts';
export { buildProgress } from './buildProgress.ts';
export type { GateDecision } from './controllerSession.ts';
export { describeTrigger } from './traceFormat.ts';
export { TypedEmitter } from './typedEmitter.ts';
export { releaseInspectorWait } from './inspectorRelease.ts';
export type { GoProgramOptions } from './controllerSession.ts';
export type { TypeScriptHost, HostSpawnOptions, ControllerProcessEvents } from './hostProcess.ts';
export { controllerTarget, hasMainPackage, looksLikeGoPackagePath, notAControllerFile, programName } from './controllerTarget.ts';
export type { ControllerTarget } from './controllerTarget.ts';
export { buildGoProgram } from './goControllerProcess.ts';
export { cachedProgramPath } from './goProgramCache.ts';
export { BUILD_PROGRESS_EVERY_MS } from './buildProgress.ts';
export { goExitHint, OutputTail } from './goMessages.ts';
export { notStartedHint } from './notStartedHint.ts';
export { goProgramsFor } from './goProgramFor.ts';
export type { GoProgram, GoProgramChoice } from './goProgramFor.ts';
