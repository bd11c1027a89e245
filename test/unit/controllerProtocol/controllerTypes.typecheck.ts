// types/controller-lab.d.ts (the ambient 'controller-lab' module users' editors see) restates the
// types of src/controllerProtocol/api.ts. This file is only type-checked: the typecheck stage fails
// when the two drift apart, in either direction.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../types/controller-lab.d.ts" />
import type * as Declared from 'controller-lab';
import type * as Api from '../../../src/controllerProtocol/api.ts';

/** True when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const controllerTypesMatch: [
  Same<Declared.KindRef, Api.KindRef>,
  Same<Declared.KindSelector, Api.KindSelector>,
  Same<Declared.ReconcileRequest, Api.ReconcileRequest>,
  Same<Declared.ReconcileResult, Api.ReconcileResult>,
  Same<Declared.CacheListOptions, Api.CacheListOptions>,
  Same<Declared.ObjectRef, Api.ObjectRef>,
  Same<Declared.PatchType, Api.PatchType>,
  Same<Declared.ControllerClient, Api.ControllerClient>,
  Same<Declared.ControllerLogger, Api.ControllerLogger>,
  Same<Declared.CacheReader, Api.CacheReader>,
  Same<Declared.EventType, Api.EventType>,
  Same<Declared.EventRecorder, Api.EventRecorder>,
  Same<Declared.ReconcileContext, Api.ReconcileContext>,
  Same<Declared.WatchSpec, Api.WatchSpec>,
  Same<Declared.ControllerSpec, Api.ControllerSpec>,
  Same<Parameters<typeof Declared.defineController>, Parameters<typeof Api.defineController>>,
  Same<InstanceType<typeof Declared.TerminalError>, InstanceType<typeof Api.TerminalError>>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
