// The Kubernetes CEL libraries as validation rules call them (k8s.io/apiserver/pkg/cel/library's
// lists, regex, urls and quantity; cel-go's ext strings), on the values fields become.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression } from '../../../../src/sim/crdSchema/cel/celCompile.ts';

function run(expression: string, self: unknown = null): unknown {
  const compiled = compileExpression(expression);
  if (!compiled.ok) throw new Error(compiled.detail);
  return compiled.compiled.program({ self, oldSelf: null });
}

describe('Kubernetes CEL libraries', () => {
  it('strings: charAt, indexOf, lastIndexOf, replace, split, substring, trim, join, lowerAscii, upperAscii', () => {
    assert.equal(run('self.charAt(1) + self.charAt(3)', 'héllo'), 'él');
    assert.equal(run("'a-b-c'.replace('-', '+')"), 'a+b+c');
    assert.equal(run("'a-b-c'.replace('-', '+', 1)"), 'a+b-c');
    assert.deepEqual(run("'a,b,c'.split(',')"), ['a', 'b', 'c']);
    assert.equal(run("'  x '.trim() + 'Hello'.substring(1, 3) + 'AbC'.lowerAscii() + 'q'.upperAscii()"), 'xelabcQ');
    assert.equal(run("['a', 'b'].join('/')"), 'a/b');
    assert.equal(run("'banana'.indexOf('an') + 'banana'.lastIndexOf('an')"), 4n);
  });

  it('lists: isSorted, sum, min, max, indexOf, lastIndexOf', () => {
    assert.equal(run('self.isSorted()', [1n, 2n, 2n, 5n]), true);
    assert.equal(run('self.isSorted()', ['b', 'a']), false);
    assert.equal(run('self.sum()', [1n, 2n, 3n]), 6n);
    assert.equal(run('self.min() + self.max()', [4n, 1n, 9n]), 10n);
    assert.equal(run("self.indexOf('b') * 10 + self.lastIndexOf('b')", ['a', 'b', 'c', 'b']), 13n);
    assert.throws(() => run('self.min()', []), /min called on empty list/);
  });

  it('regex: find, findAll; urls: isURL, url(...).getScheme/getHost/getHostname/getPort/getEscapedPath/getQuery', () => {
    assert.equal(run("'abc 123 def 456'.find('[0-9]+')"), '123');
    assert.deepEqual(run("'abc 123 def 456'.findAll('[0-9]+')"), ['123', '456']);
    assert.deepEqual(run("'a1b2c3'.findAll('[0-9]', 2)"), ['1', '2']);
    assert.equal(run("isURL('https://example.com:8443/a%20b?x=1&x=2') && !isURL('not a url')"), true);
    const url = "url('https://example.com:8443/a%20b?x=1&x=2')";
    assert.deepEqual(
      [`${url}.getScheme()`, `${url}.getHost()`, `${url}.getHostname()`, `${url}.getPort()`, `${url}.getEscapedPath()`].map((e) => run(e)),
      ['https', 'example.com:8443', 'example.com', '8443', '/a%20b'],
    );
    assert.deepEqual(run(`${url}.getQuery()`), { x: ['1', '2'] });
  });

  it('quantity: exact comparisons across suffixes, arithmetic, conversions', () => {
    assert.equal(run("quantity('1Gi') == quantity('1024Mi') && quantity('1G') != quantity('1Gi') && quantity('1e3') == quantity('1k')"), true);
    assert.equal(run("quantity(self).isGreaterThan(quantity('500m')) && quantity(self).isLessThan(quantity('1'))", '750m'), true);
    assert.equal(run("quantity('1500m').add(1).sub(quantity('500m')).asInteger()"), 2n);
    assert.deepEqual([run("quantity('-2Ki').sign()"), run("quantity('1.5').isInteger()"), run("quantity('250m').asApproximateFloat()")], [-1n, false, 0.25]);
    assert.equal(run("isQuantity('10Mi') && !isQuantity('10 apples')"), true);
    assert.throws(() => run("quantity('1.5').asInteger()"), /cannot convert value to integer/);
  });

  it('the standard library: macros, has, size, matches, timestamps and durations, optionals', () => {
    const self = { items: [{ name: 'a', n: 1n }, { name: 'b', n: 2n }], tags: { env: 'prod' } };
    assert.equal(run("self.items.exists_one(i, i.name == 'a') && self.items.map(i, i.n).sum() == 3 && self.items.filter(i, i.n > 1).size() == 1", self), true);
    assert.equal(run("has(self.tags.env) && !has(self.missing) && self.tags.all(k, k.matches('^[a-z]+$'))", self), true);
    assert.equal(run("timestamp('2024-01-01T00:00:00Z') + duration('1h') > timestamp('2024-01-01T00:30:00Z')"), true);
    assert.equal(run("self.?missing.orValue('none')", self), 'none');
  });
});
