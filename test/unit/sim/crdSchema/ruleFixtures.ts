import type { KubeObject } from '../../../../src/shared/k8s.ts';

// A CRD whose schema carries x-kubernetes-validations rules on the root, nested objects, lists,
// list items, maps, numbers and the status, as kubebuilder's XValidation markers write them.

export const WIDGETS = { group: 'rules.example.com', version: 'v1', resource: 'widgets' };
export const WIDGETS_PATH = '/apis/rules.example.com/v1/namespaces/default/widgets';

export function widgetCrd(specExtras: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.rules.example.com' },
    spec: {
      group: 'rules.example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: widgetSchema(specExtras) } }],
    },
  };
}

export function widgetSchema(specExtras: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'object',
    'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('w-')", message: 'name must start with w-' }],
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': [
          { rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' },
          { rule: "!has(self.owner) || self.owner != ''", reason: 'FieldValueForbidden', fieldPath: '.owner' },
        ],
        properties: {
          minReplicas: { type: 'integer', default: 1 },
          maxReplicas: { type: 'integer', default: 3 },
          owner: { type: 'string' },
          mode: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'Value is immutable' }] },
          ports: {
            type: 'array',
            items: { type: 'integer' },
            'x-kubernetes-validations': [{
              rule: 'self.all(p, p > 0 && p < 65536)',
              messageExpression: "'ports must be between 1 and 65535, got ' + string(self.filter(p, p <= 0 || p >= 65536).size()) + ' outside'",
            }],
          },
          containers: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            'x-kubernetes-validations': [{ rule: "self.exists(c, c.name == 'main')", message: 'a container named main is required', reason: 'FieldValueRequired' }],
            items: {
              type: 'object',
              required: ['name'],
              'x-kubernetes-validations': [
                { rule: "self.image.contains(':')", message: 'image needs a tag', fieldPath: '.image' },
                { rule: 'self.image == oldSelf.image || self.name != "main"', message: 'the main image is fixed' },
              ],
              properties: { name: { type: 'string' }, image: { type: 'string' } },
            },
          },
          labels: {
            type: 'object',
            additionalProperties: { type: 'string' },
            'x-kubernetes-validations': [{ rule: "self.all(k, k.size() <= 10 && self[k] != '')", message: 'label keys at most 10 characters, values non-empty' }],
          },
          ratio: { type: 'number', 'x-kubernetes-validations': [{ rule: 'self <= 1.0' }] },
          notBefore: { type: 'string', format: 'date-time', 'x-kubernetes-validations': [{ rule: "self >= timestamp('2020-01-01T00:00:00Z')", message: 'must not be before 2020' }] },
          timeout: { type: 'string', format: 'duration', 'x-kubernetes-validations': [{ rule: "self <= duration('1h')", message: 'at most an hour' }] },
          endpoint: { type: 'string', 'x-kubernetes-validations': [{ rule: "isURL(self) && url(self).getScheme() == 'https'", message: 'must be an https URL' }] },
          hosts: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.isSorted() && self.all(h, h.lowerAscii() == h)', message: 'sorted, lower case' }] },
          weights: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.sum() == 100', messageExpression: "'weights add up to ' + string(self.sum())" }] },
          ...specExtras,
        },
      },
      status: {
        type: 'object',
        properties: { ready: { type: 'integer' } },
        'x-kubernetes-validations': [{ rule: 'self.ready >= 0', message: 'ready must not be negative' }],
      },
    },
  };
}

export function widget(name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'rules.example.com/v1', kind: 'Widget', metadata: { name }, spec, ...extra };
}

export const GOOD_SPEC = { minReplicas: 1, maxReplicas: 2, mode: 'fast', ports: [80, 443], containers: [{ name: 'main', image: 'nginx:1.25' }], labels: { app: 'web' }, ratio: 0.5 };
