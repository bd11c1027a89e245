// How "Add Controller Types to Workspace" edits tsconfig.json: the ambient `controller-lab` module
// declaration must be part of the program. Plain JSON is edited; anything else (comments, trailing
// commas) is left alone and the user is told what to add.

export interface TsconfigEdit {
  /** The new file content, or undefined when nothing is written. */
  text?: string;
  /** One sentence for the notification. */
  hint: string;
}

export const NEW_TSCONFIG = { compilerOptions: { target: 'es2022', module: 'nodenext', strict: true, noEmit: true }, include: ['**/*.ts'] };

export function includeTypesIn(existing: string | undefined, typesPath: string): TsconfigEdit {
  if (existing === undefined) {
    const config = { ...NEW_TSCONFIG, include: [...NEW_TSCONFIG.include, typesPath] };
    return { text: JSON.stringify(config, null, 2) + '\n', hint: 'Created tsconfig.json including it.' };
  }
  let config: { include?: string[]; files?: string[] };
  try {
    config = JSON.parse(existing) as typeof config;
  } catch {
    return { hint: `Add "${typesPath}" to "include" in tsconfig.json.` };
  }
  if (config.include?.includes(typesPath) || config.files?.includes(typesPath)) return { hint: 'tsconfig.json already includes it.' };
  if (!config.include && !config.files) return { hint: 'tsconfig.json includes every .ts file, so it is picked up.' };
  if (config.include) config.include.push(typesPath);
  else config.files?.push(typesPath);
  return { text: JSON.stringify(config, null, 2) + '\n', hint: 'Added it to tsconfig.json.' };
}
