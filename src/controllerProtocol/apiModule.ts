// What `import … from 'controller-lab'` becomes inside the controller host, whichever way the user's
// code was loaded: a module that reads the host's API from a global, so the user's `TerminalError`
// is the very class the host checks with instanceof.

export const API_MODULE_SOURCE = `const api = globalThis[Symbol.for('controller-lab.api')];
if (!api) throw new Error('controller-lab: this module runs only inside the Controller Lab controller host');
export const defineController = api.defineController;
export const TerminalError = api.TerminalError;
export const predicate = api.predicate;
export const GenerationChangedPredicate = api.GenerationChangedPredicate;
export const ResourceVersionChangedPredicate = api.ResourceVersionChangedPredicate;
export const LabelChangedPredicate = api.LabelChangedPredicate;
export const AnnotationChangedPredicate = api.AnnotationChangedPredicate;
export default api;`;

/** The same module as a URL Node's loader imports directly: no file to write or ship. */
export const API_MODULE_URL = `data:text/javascript,${encodeURIComponent(API_MODULE_SOURCE)}`;
