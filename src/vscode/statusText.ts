import type { Lab } from './model/lab.ts';
import { describeListProgress } from './model/listProgress.ts';

// What the status bar says, without VS Code: which cluster, how many informers are synced, how far
// a large list has come, events per second.

export function statusText(lab: Lab): { text: string; tooltip: string; warning: boolean } {
  const clusters = [...lab.clusters.values()];
  if (clusters.length === 0) return { text: '$(beaker) Controller Lab', tooltip: 'Controller Lab: not connected — open the Controller Lab view', warning: false };
  const informers = [...lab.informers()];
  const synced = informers.filter((i) => i.phase === 'synced').length;
  const failing = clusters.some((c) => c.phase === 'failed') || informers.some((i) => i.phase === 'retrying');
  const name = clusters.length === 1 ? clusters[0]!.label : `${clusters.length} clusters`;
  const rate = lab.eventRate.perSecond();
  const rateText = rate >= 10 ? rate.toFixed(0) : rate.toFixed(1);
  const icon = failing ? '$(warning)' : clusters[0]!.kind === 'sim' ? '$(beaker)' : '$(server-environment)';
  // A large list takes seconds to arrive: say how far along it is, for the biggest one under way.
  const listing = informers.flatMap((i) => {
    const progress = i.listProgress();
    return progress ? [{ name: i.name, progress }] : [];
  });
  listing.sort((a, b) => b.progress.objects - a.progress.objects);
  const first = listing[0];
  const listingText = first ? ` · $(sync~spin) ${first.name}: ${describeListProgress(first.progress)}${listing.length > 1 ? ` +${listing.length - 1}` : ''}` : '';
  const listingTooltip = listing.map((l) => `\nlisting ${l.name}: ${describeListProgress(l.progress)}`).join('');
  return {
    text: `${icon} ${name} · ${synced}/${informers.length} synced${listingText} · ${rateText} ev/s`,
    tooltip: `Controller Lab — ${name}\n${synced} of ${informers.length} informers synced${listingTooltip}\n${rateText} watch events per second\nClick to open the timeline`,
    warning: failing,
  };
}
