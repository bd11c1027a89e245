// `controller-lab check`: finds a controller's bugs by perturbing what it sees on the simulated
// cluster (stale state, intermediate state, unobserved state) and by reconciling it again once
// quiet (not idempotent), judging each run's end state against unperturbed reference runs.
export { checkController, CheckInputError } from './checkController.ts';
export type { CheckEvent, CheckOptions, CheckReport } from './checkController.ts';
export type { Finding, FindingReconcile } from './findings/finding.ts';
export { describeFinding, isRecreation } from './findings/finding.ts';
export type { FindingClass, Plan } from './plans/plan.ts';
export { describePlan } from './plans/plan.ts';
export { encodePlan, parsePlan, PlanError } from './plans/planCodec.ts';
export { reportJson, REPORT_VERSION } from './report.ts';
export { checkProgress, checkVerdict, describeReport, replayCommand } from './checkText.ts';
export type { CheckCommandLine } from './checkText.ts';
// The reconcile debugger replays a finding's run in its own session through these.
export { PlanReplay } from './run/planReplay.ts';
export type { PlanReplayHooks } from './run/planReplay.ts';
export { CHECKED_USER } from './run/controllerUnderCheck.ts';
