// Preloaded (--import) into a command a test starts: on exit, writes the Node built-in modules
// the process loaded, one a line, to the file LOADED_BUILTINS_FILE names.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  writeFileSync(process.env.LOADED_BUILTINS_FILE, `${loaded.join('\n')}\n`);
});
