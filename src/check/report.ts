import type { CheckReport } from './checkController.ts';

// The JSON report `check --json FILE` writes; docs/check.md documents every field. The version
// changes when a field changes meaning or goes, not when one is added.

export const REPORT_VERSION = 1;

export function reportJson(report: CheckReport): string {
  return `${JSON.stringify(
    {
      version: REPORT_VERSION,
      findings: report.findings.map((f) => ({
        class: f.class,
        summary: f.summary,
        perturbation: f.perturbation,
        plan: f.plan,
        diff: f.diff,
        objects: f.objects,
        reconciles: f.reconciles,
        replay: f.replay,
        ...(f.alsoReproducedBy ? { alsoReproducedBy: f.alsoReproducedBy } : {}),
      })),
      runs: report.runs,
      planned: report.planned,
      skipped: report.skipped,
      durationMs: Math.round(report.durationMs),
    },
    null,
    2,
  )}\n`;
}
