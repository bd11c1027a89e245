import { crc32 } from 'node:zlib';
import type { KubeObject } from '../../shared/k8s.ts';

// One line of the write-ahead journal: `<crc32 hex> <json>\n`. The checksum tells a torn tail (a
// crash in the middle of an append: ignored, it was never acknowledged) from damage.

export interface PutRecord {
  rv: number;
  g: string;
  r: string;
  k: string;
  o: KubeObject;
}

export interface DeleteRecord {
  rv: number;
  g: string;
  r: string;
  k: string;
  d: true;
}

/** ResourceVersions below `reserve` may be handed out (see persistence.ts). */
export interface ReserveRecord {
  rv: number;
  reserve: number;
}

export type JournalRecord = PutRecord | DeleteRecord | ReserveRecord;

/** A put carries the object's JSON as stored (built once at commit, never stringified again here). */
export function putLine(rv: number, group: string, resource: string, key: string, objectJson: string): string {
  return sealed(`{"rv":${rv},"g":${JSON.stringify(group)},"r":${JSON.stringify(resource)},"k":${JSON.stringify(key)},"o":${objectJson}}`);
}

export function deleteLine(rv: number, group: string, resource: string, key: string): string {
  return sealed(`{"rv":${rv},"g":${JSON.stringify(group)},"r":${JSON.stringify(resource)},"k":${JSON.stringify(key)},"d":true}`);
}

export function reserveLine(rv: number, upTo: number): string {
  return sealed(`{"rv":${rv},"reserve":${upTo}}`);
}

function sealed(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** The record on one line (without its newline), or a reason it is not one. */
export function parseLine(line: string): JournalRecord | string {
  if (line.length < 10 || line[8] !== ' ') return 'not a journal record';
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return 'checksum mismatch';
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return 'not JSON';
  }
  const r = value as Partial<PutRecord & DeleteRecord & ReserveRecord>;
  if (typeof r === 'object' && r !== null && Number.isSafeInteger(r.rv) && Number.isSafeInteger(r.reserve)) return r as ReserveRecord;
  if (typeof r !== 'object' || r === null || !Number.isSafeInteger(r.rv) || typeof r.g !== 'string' || typeof r.r !== 'string' || typeof r.k !== 'string') {
    return 'not a journal record';
  }
  if (r.d !== true && (typeof r.o !== 'object' || r.o === null || typeof r.o.metadata !== 'object')) return 'not a journal record';
  return r as JournalRecord;
}
