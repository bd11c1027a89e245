// Lets the editor and tsc see the 'controller-lab' module's types (see types/controller-lab.d.ts).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../types/controller-lab.d.ts" />
