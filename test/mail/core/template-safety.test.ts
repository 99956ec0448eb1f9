/**
 * Templates are untrusted code (issue 21 items 1–4): each payload of the issue verbatim, the budgets, the
 * isolation of renders from one another, and a property test over random templates built from the
 * language's grammar and hostile fragments: nothing but the render's own data and the listed tools is
 * ever reached, and nothing but a DomainError ever comes out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createVelocityEngine } from '../../../src/adapters/templates/velocity-engine.js';
import { BUDGET } from '../../../src/adapters/templates/template-render.js';
import { TOOLS } from '../../../src/adapters/templates/template-tools.js';
import { renderEmail } from '../../../src/app/mail/render-email.js';
import { BODY_MAX_LENGTH, SUBJECT_MAX_LENGTH, type TemplateVars } from '../../../src/app/mail/template.port.js';
import { DomainError } from '../../../src/core/errors.js';

const engine = createVelocityEngine();
const compileBody = (source: string, html = true) =>
  engine.compile(source, { html, label: 'signatureRequestSigneeEmailContentTemplate', maxLength: BODY_MAX_LENGTH });
const compileSubject = (source: string) =>
  engine.compile(source, {
    html: false,
    label: 'signatureRequestSigneeEmailSubjectTemplate',
    maxLength: SUBJECT_MAX_LENGTH,
  });

const isCode = (code: string, pattern?: RegExp) => (err: unknown) =>
  err instanceof DomainError && err.code === code && (pattern === undefined || pattern.test(err.message));

const TENANT_A = {
  signeeName: 'Alice',
  signatureRequestURL: 'https://sign.example.com/v1/signatureRequest/aaaa?signeeId=SECRET-OF-A',
  code: 'return process.pid',
};
const TENANT_B = {
  signeeName: 'Bob',
  signatureRequestURL: 'https://sign.example.com/v1/signatureRequest/bbbb?signeeId=SECRET-OF-B',
};

describe('issue 21 item 1: a template cannot execute code', () => {
  const payload =
    '$tools.urlEncode("x")<p>$tools.eval(\'#set($g = $raw.__lookupGetter__("__proto__"))#set($fp = $g.call($tools.urlEncode))#set($F = $fp.constructor($raw.code))$F.call()\')</p>';

  it('the payload of the issue is refused at compile time, even after renders that called a tool', () => {
    compileBody('$tools.urlEncode("x")').render(TENANT_A);
    assert.throws(
      () => compileBody(payload),
      isCode('INVALID_TEMPLATE', /line 1: \$tools is only called: \$tools\.urlEncode/),
    );
  });

  it('calling a tool leaves no property behind: the tools are the same fixed Map', () => {
    compileBody('$tools.urlEncode($signeeName)').render(TENANT_A);
    assert.deepEqual([...TOOLS.keys()], ['urlEncode']);
    assert.throws(() => compileBody("$tools.eval('$signatureRequestURL')"), isCode('INVALID_TEMPLATE'));
  });

  for (const source of [
    '$raw.__lookupGetter__("__proto__")',
    '#set($g = $raw.__lookupGetter__("__proto__"))',
    '$raw.__proto__',
    '$raw["__proto__"]',
    '$signeeName.constructor',
    '$raw.code.constructor',
    '$signeeName.getClass().forName("java.lang.Runtime")',
    '#set($F = $x.constructor("return process.pid"))$F.call()',
    '$tools.urlEncode.call($tools)',
    '$tools.constructor',
    '$tools',
    '$raw',
    '#foreach($k in $raw)$k#end',
    '#evaluate("$signatureRequestURL")',
    '#define($d)x#end',
    '#@mac()x#end',
    '#foreach($i in [1..3])#break#end',
    '$foo()',
  ])
    it(`refuses ${JSON.stringify(source)} at compile time`, () => {
      assert.throws(
        () => compileBody(source),
        isCode('INVALID_TEMPLATE', /^signatureRequestSigneeEmailContentTemplate: line 1: /),
      );
    });

  it('a property the data does not own reads as nothing (never through a prototype)', () => {
    assert.equal(
      compileBody('[$!signeeName.length][$!list.length][$!map.hasOwnProperty]').render({
        signeeName: 'x',
        list: ['a'],
        map: {},
      }),
      '[][][]',
    );
    assert.equal(compileBody('$!valueOf.x|$!toString').render({}), '|');
  });
});

describe('issue 21 item 2: one render never sees another', () => {
  it("a template cannot print what a render of the shared default template saw (the issue's payload refused)", () => {
    const context = { ...TENANT_A, lang: 'en', requesterName: 'A', documentName: 'A doc', signingURL: 'https://s' };
    renderEmail(engine, { type: 'signatureRequestSigneeEmail', context });
    assert.throws(() => compileBody("$tools.eval('$signatureRequestURL')"), isCode('INVALID_TEMPLATE'));
    const own = compileBody('[$signatureRequestURL][$!leak]').render(TENANT_B);
    assert.equal(own, `[${TENANT_B.signatureRequestURL}][]`);
  });

  it('#set in one render is gone in the next, even on the same compiled template', () => {
    const t = compileBody('[$!kept]#set($kept = $signatureRequestURL)[$kept]');
    assert.equal(t.render(TENANT_A), `[][${TENANT_A.signatureRequestURL}]`);
    assert.equal(t.render(TENANT_B), `[][${TENANT_B.signatureRequestURL}]`);
  });

  it('two tenants rendering at once, interleaved, each see only their own values', async () => {
    const shared = compileBody(
      '#macro(link $u)<a href="$u">$signeeName</a>#end#foreach($i in [1..3])#set($last = $signatureRequestURL)#link($last)#end',
    );
    const other = compileBody('#set($last = "B")$signatureRequestURL$!last');
    const tenants = [TENANT_A, TENANT_B];
    const outputs = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const tenant = tenants[i % 2]!;
        await new Promise((resolve) => setImmediate(resolve));
        const text = (i % 3 === 0 ? other : shared).render(tenant);
        await Promise.resolve();
        return { tenant, text };
      }),
    );
    for (const { tenant, text } of outputs) {
      const foreign = tenant === TENANT_A ? TENANT_B : TENANT_A;
      assert.ok(text.includes(tenant.signatureRequestURL.replace(/&/g, '&amp;')), text);
      assert.ok(!text.includes(foreign.signatureRequestURL) && !text.includes(foreign.signeeName), text);
    }
  });
});

describe('issue 21 item 3: no template writes anything outside its own render', () => {
  for (const source of [
    '#set($tools.urlEncode = "PWNED")',
    '#set($tools = "PWNED")',
    '#set($raw.signeeName = "x")',
    '#set($a.b = 1)',
    '#set($a[0] = 1)',
    '#foreach($tools in [1])#end',
    '#macro(m $raw)#end',
  ])
    it(`refuses ${JSON.stringify(source)}`, () => {
      assert.throws(
        () => compileSubject(source),
        isCode('INVALID_TEMPLATE', /^signatureRequestSigneeEmailSubjectTemplate: line 1: /),
      );
    });

  it('every other render still gets the real tool and its own values', () => {
    assert.throws(() => compileSubject('#set($tools.urlEncode = "PWNED")'));
    const link = compileBody('$tools.urlEncode($signatureRequestURL)').render(TENANT_B);
    assert.equal(link, encodeURIComponent(TENANT_B.signatureRequestURL));
  });

  it("a template's data is frozen: #set shadows a name for this render only", () => {
    const vars = { signeeName: 'Zoé' };
    assert.equal(compileSubject('#set($signeeName = "X")$signeeName').render(vars), 'X');
    assert.equal(compileSubject('$signeeName').render(vars), 'Zoé');
    assert.equal(vars.signeeName, 'Zoé');
  });
});

describe('issue 21 item 4: a bounded amount of work and size per render', () => {
  it('the nested-loop payload of the issue is stopped by the budget', () => {
    const t = compileSubject('#foreach($i in [1..10000])#foreach($j in [1..10000])#end#end');
    assert.throws(() => t.render({}), isCode('TEMPLATE_TOO_COSTLY', /more than 100000 evaluation steps/));
  });

  it('the doubling-string payload of the issue is stopped by the budget, as a subject and as a body', () => {
    const source = '#set($s="xxxxxxxxxx")#foreach($i in [1..20])#set($s="$s$s")#end$s';
    assert.throws(() => compileSubject(source).render({}), isCode('TEMPLATE_TOO_COSTLY', /longer than/));
    assert.throws(
      () => compileBody(source).render({}),
      isCode('TEMPLATE_TOO_COSTLY', /a string longer than 262144 characters/),
    );
  });

  it('more than 32 loops and macro calls open at once are stopped (each is a scope names are looked up in)', () => {
    const nest = (n: number) => `${'#foreach($i in [1])'.repeat(n)}$i${'#end'.repeat(n)}`;
    assert.equal(compileBody(nest(32)).render({}), '1');
    assert.throws(
      () => compileBody(nest(33)).render({}),
      isCode('TEMPLATE_TOO_COSTLY', /more than 32 loops and macro calls/),
    );
    const viaMacros = '#macro(m $n)#foreach($a in [1])#foreach($b in [1])#m($n)#end#end#end#m(1)';
    assert.throws(
      () => compileBody(viaMacros).render({}),
      isCode('TEMPLATE_TOO_COSTLY', /more than 32 loops and macro calls/),
    );
  });

  it('a range of more than 10,000 elements, macros nested more than 20 deep, an output too long', () => {
    assert.throws(
      () => compileBody('#foreach($i in [0..10000])#end').render({}),
      isCode('TEMPLATE_TOO_COSTLY', /range of 10001/),
    );
    assert.throws(
      () => compileBody('#macro(r $n)#r($n)#end#r(1)').render({}),
      isCode('TEMPLATE_TOO_COSTLY', /nested more than 20/),
    );
    assert.throws(
      () => compileSubject('#foreach($i in [1..101])0123456789#end').render({}),
      isCode('TEMPLATE_TOO_COSTLY', /^signatureRequestSigneeEmailSubjectTemplate: line 1: the output longer than 1000/),
    );
    assert.equal(compileSubject('#foreach($i in [1..100])0123456789#end').render({}).length, 1000);
  });

  it('comparing long strings in a loop counts their length: stopped by the characters budget', () => {
    const big = 'x'.repeat(60_000);
    const t = compileBody('#foreach($i in [1..9000])#if($a == $b)#end#end');
    assert.throws(() => t.render({ a: big, b: `${big}` }), isCode('TEMPLATE_TOO_COSTLY', /built in all/));
  });

  it('a value built by concatenation or a tool is bounded too, and so is the total built', () => {
    const big = 'x'.repeat(200_000);
    assert.throws(() => compileBody('#set($t = $s + $s)').render({ s: big }), isCode('TEMPLATE_TOO_COSTLY'));
    assert.throws(
      () => compileBody('#foreach($i in [1..20])#set($t = $tools.urlEncode($s))#end').render({ s: big }),
      isCode('TEMPLATE_TOO_COSTLY', /built in all/),
    );
  });

  it('blocks or expressions nested more than 64 deep are refused at compile time (the interpreter stays shallow)', () => {
    const deepIf = `${'#if(true)'.repeat(65)}x${'#end'.repeat(65)}`;
    assert.throws(() => compileBody(deepIf), isCode('INVALID_TEMPLATE', /nested more than 64 deep/));
    assert.throws(() => compileBody(`#set($x = ${'['.repeat(5000)}${']'.repeat(5000)})`), isCode('INVALID_TEMPLATE'));
    assert.equal(compileBody(`${'#if(true)'.repeat(60)}x${'#end'.repeat(60)}`).render({}), 'x');
  });

  it('a template too long is refused before it is parsed; a dense one is parsed (in linear time, issue 32)', () => {
    assert.throws(() => compileBody('x'.repeat(16_385)), isCode('TEMPLATE_TOO_COSTLY', /longer than 16384 characters/));
    assert.equal(compileBody('$a'.repeat(8_192)).render({ a: 'A' }), 'A'.repeat(8_192));
    assert.equal(
      compileBody(`${'<p>text</p>'.repeat(1_400)}$a`)
        .render({ a: 'A' })
        .slice(-5),
      '</p>A',
    );
  });

  it('a template is parsed once: compiling the same source again gives the same compiled template', () => {
    const source = '#foreach($i in [1..3])$i#end';
    assert.equal(compileBody(source), compileBody(source));
    assert.notEqual(compileBody(source), compileBody(source, false));
  });

  it('the budget names the line where it was passed', () => {
    assert.throws(
      () => compileBody('a\nb\n#foreach($i in [1..20000])#end').render({}),
      isCode('TEMPLATE_TOO_COSTLY', /line 3: a range/),
    );
  });

  it('within the budget, a loop-heavy template renders', () => {
    const t = compileBody('#foreach($i in [1..9000])#if($i % 1000 == 0)$i #end#end');
    assert.equal(t.render({}), '1000 2000 3000 4000 5000 6000 7000 8000 9000 ');
    assert.ok(BUDGET.steps === 100_000 && BUDGET.rangeSize === 10_000);
  });
});

/** Random templates over the grammar of the language and hostile fragments, with two tenants' data. */
describe('property: random templates reach nothing outside the render', () => {
  const names = ['name1', 'name2', 'list', 'flag'];
  const ref = fc.constantFrom(
    ...names.map((n) => `$${n}`),
    '$raw.name1',
    '$raw.name2',
    '$i',
    '$foreach.count',
    '$velocityCount',
  );
  const hostile = fc.constantFrom(
    '$name1.constructor',
    '$name1.toString()',
    '$tools.eval("$name1")',
    '$raw.__proto__',
    '$raw.constructor.name',
    '#set($tools.urlEncode = "x")',
    '#include("/etc/passwd")',
    '$list.get(0)',
    '$name1["constructor"]',
    '$list[$i]',
    '#set($name1.x = 1)',
    '${name1.__proto__}',
    '#foreach($i in [1..999999])#end',
  );
  const literal = fc.constantFrom('"XY"', "'Y'", '1', '2', 'true', '[1, 2]', '[1..3]', '{"k": "Y"}', '"X$name1"');
  const expr = fc.oneof(
    ref,
    literal,
    fc.tuple(ref, fc.constantFrom(' == ', ' != ', ' + ', ' > ', ' && ', ' || '), literal).map((p) => p.join('')),
  );
  const template: fc.Arbitrary<string> = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom('X', 'Y ', ' ', '\n', '## c\n'),
      ref,
      ref.map((r) => r.replace('$', '$!')),
      ref.map((r) => `\${${r.slice(1)}}`),
      expr.map((e) => `$tools.urlEncode(${e})`),
      fc.tuple(fc.constantFrom('name1', 'tmp', 'list'), expr).map(([n, e]) => `#set($${n} = ${e})`),
      fc.tuple(expr, tie('nodes'), tie('nodes')).map(([c, a, b]) => `#if(${c})${a}#else${b}#end`),
      fc
        .tuple(fc.constantFrom('$list', '[1..3]', '["X", $name2]'), tie('nodes'))
        .map(([l, body]) => `#foreach($i in ${l})${body}#end`),
      tie('nodes').map((body) => `#macro(m $p)${body}$p#end#m($name1)`),
      hostile,
    ),
    nodes: fc.array(tie('node'), { maxLength: 4 }).map((parts) => parts.join('')),
  })).nodes;

  const tenant = (marker: string): TemplateVars => ({
    name1: `${marker}a<b&"'`,
    name2: `${marker}2`,
    list: [`${marker}l`, 'c'],
    flag: true,
  });

  it('output only from the template and this render’s data; errors only DomainError', () => {
    fc.assert(
      fc.property(template, fc.boolean(), (source, html) => {
        let compiled;
        try {
          compiled = compileBody(source, html);
        } catch (err) {
          assert.ok(err instanceof DomainError && err.code === 'INVALID_TEMPLATE', String(err));
          return;
        }
        const renderOf = (vars: TemplateVars): string | null => {
          try {
            return compiled.render(vars);
          } catch (err) {
            assert.ok(err instanceof DomainError && err.code === 'TEMPLATE_TOO_COSTLY', String(err));
            return null;
          }
        };
        const first = renderOf(tenant('Q'));
        const second = renderOf(tenant('W'));
        if (second !== null) assert.ok(!second.includes('Q'), `a value of another render leaked: ${second}`);
        if (first !== null) assert.ok(!first.includes('W'));
        for (const out of [first, second]) {
          if (out === null) continue;
          assert.doesNotMatch(out, /function|native code|\[object|prototype|process|Symbol/);
          const allowed = new Set(
            `${source}Q W a<b&"' 2lc ${'&amp;&lt;&gt;&quot;&#39;'} %0123456789ABCDEF truefalsenull[]{}=,.-`,
          );
          for (const ch of out)
            assert.ok(allowed.has(ch), `unexpected ${JSON.stringify(ch)} in ${JSON.stringify(out)}`);
        }
      }),
      { numRuns: 400 },
    );
  });
});
