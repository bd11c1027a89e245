import type { KubeObject } from '../../../../src/shared/k8s.ts';

/** The CronTab CRD of the Kubernetes docs, with validation keywords to check. */
export function cronTabCrd(extraSpecProperties: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            description: 'CronTab runs a command on a schedule.',
            properties: {
              spec: {
                type: 'object',
                description: 'What to run and when.',
                required: ['cronSpec'],
                properties: {
                  cronSpec: { type: 'string', description: 'The schedule in cron format.', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                  image: { type: 'string', description: 'The image to run.', maxLength: 64 },
                  replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                  mode: { type: 'string', enum: ['Fast', 'Slow'] },
                  ...extraSpecProperties,
                },
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      }],
    },
  };
}

export const CRONTABS = { group: 'stable.example.com', version: 'v1', resource: 'crontabs' };
export const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
