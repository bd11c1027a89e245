import { resolve as resolvePath } from 'node:path';
import * as vscode from 'vscode';
import type { CheckTarget } from '../../vscode/checkFindings/checkTarget.ts';

// A launch configuration with `"check": true` runs Check Controller on its controller (or program),
// scenario, workloads, runAs and args instead of starting a debug session: the check reports in
// the Check Findings view, and a finding replays in a debug session of its own.

export const checkLaunchResolver: vscode.DebugConfigurationProvider = {
  resolveDebugConfigurationWithSubstitutedVariables(folder, config) {
    if (config.check !== true) return config;
    const cwd = typeof config.cwd === 'string' ? config.cwd : folder?.uri.fsPath;
    const path = (value: unknown) => (typeof value === 'string' && value ? resolvePath(cwd ?? '', value) : undefined);
    const program = path(config.program) ?? path(config.controller);
    const scenario = path(config.scenario);
    const target: Partial<CheckTarget> = {
      ...(program ? { program } : {}),
      ...(scenario ? { scenario } : {}),
      ...(config.workloads ? { workloads: config.workloads as unknown } : {}),
      ...(typeof config.runAs === 'string' ? { as: config.runAs } : {}),
      ...(Array.isArray(config.args) ? { args: (config.args as unknown[]).map(String) } : {}),
      ...(cwd ? { cwd } : {}),
    };
    void vscode.commands.executeCommand('controllerLab.checkController', target);
    // Undefined: VS Code starts no session and says nothing.
    return undefined;
  },
};
