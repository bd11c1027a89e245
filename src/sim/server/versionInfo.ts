// What `/version` answers. kubectl's dispatcher on these machines picks a client near this version,
// and clients gate features on it, so it names a real release (the one the reference was recorded on).

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

export const DEFAULT_SERVER_VERSION = 'v1.28.4';

export function versionInfo(gitVersion = DEFAULT_SERVER_VERSION): VersionInfo {
  const m = /^v(\d+)\.(\d+)/.exec(gitVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '28',
    gitVersion,
    gitCommit: 'controller-lab-sim',
    gitTreeState: 'clean',
    buildDate: '2026-01-01T00:00:00Z',
    goVersion: 'go1.21.4',
    compiler: 'gc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
