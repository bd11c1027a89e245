// The standalone debug adapter: DAP over stdin/stdout (used by tests, and by VS Code when the adapter
// runs as a separate process: dist/debugAdapter.cjs).
import { GoReconcileDebugSession } from './go/goReconcileDebugSession.ts';

GoReconcileDebugSession.run(GoReconcileDebugSession);
