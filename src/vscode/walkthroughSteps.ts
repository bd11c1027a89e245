// The walkthrough's id and the context keys its steps complete on (package.json's walkthroughs:
// completionEvents `onContext:<key>`). Plain data, so a unit test can hold package.json to them.

export const WALKTHROUGH_ID = 'controllerLab.gettingStarted';

/** Context keys the walkthrough's steps complete on (package.json: completionEvents onContext:…). */
export const STEP_CONTEXT_KEYS = {
  viewOpened: 'controllerLab.step.viewOpened',
  watched: 'controllerLab.step.watched',
  timeline: 'controllerLab.step.timeline',
  scenario: 'controllerLab.step.scenario',
  objectChanged: 'controllerLab.step.objectChanged',
  controller: 'controllerLab.step.controller',
} as const;

export type WalkthroughStep = keyof typeof STEP_CONTEXT_KEYS;
