/** Velocity templates: the spec's constructs, HTML escaping with a raw way out, and what templates may not do. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVelocityEngine } from '../../../src/adapters/templates/velocity-engine.js';
import { BODY_MAX_LENGTH } from '../../../src/app/mail/template.port.js';
import { DomainError } from '../../../src/core/errors.js';

const engine = createVelocityEngine();
const html = (source: string, vars: Record<string, unknown> = VARS) =>
  engine.compile(source, { html: true, label: 'test', maxLength: BODY_MAX_LENGTH }).render(vars as never);
const text = (source: string, vars: Record<string, unknown> = VARS) =>
  engine.compile(source, { html: false, label: 'test', maxLength: BODY_MAX_LENGTH }).render(vars as never);

const VARS = {
  signeeName: 'Zoé <b>Durand</b> & Co',
  lang: 'fr',
  signatureRequestURL: 'http://localhost:3000/v1/signatureRequest/3f1c?signeeId=a b&c',
  signingURL: 'https://sign.example.com/page',
  requiresOTP: false,
  signers: ['Ann', 'Bob', 'Cy'],
  quote: `it's "x"`,
};

/** [template, expected output] — each expected value written by hand from the Velocity 2.3 rules. */
const CASES: [string, string][] = [
  ['Hello $signeeName', 'Hello Zoé &lt;b&gt;Durand&lt;/b&gt; &amp; Co'],
  ["<a title='$quote'>", "<a title='it&#39;s &quot;x&quot;'>"],
  ['[$!missing]', '[]'],
  ['[$missing]', '[$missing]'],
  ['${lang}-x', 'fr-x'],
  ['#if($lang == "en")Hi#elseif($lang == "fr")Salut#else Hey#end', 'Salut'],
  ['#if($requiresOTP)OTP#else no OTP#end', ' no OTP'],
  ['#set($greeting = "Bonjour")$greeting', 'Bonjour'],
  ['#foreach($s in $signers)$s#if($foreach.hasNext), #end#end', 'Ann, Bob, Cy'],
  [
    '$signingURL?signatureRequestURL=$tools.urlEncode($signatureRequestURL)',
    'https://sign.example.com/page?signatureRequestURL=http%3A%2F%2Flocalhost%3A3000%2Fv1%2FsignatureRequest%2F3f1c%3FsigneeId%3Da%20b%26c',
  ],
  ['$raw.signeeName', 'Zoé <b>Durand</b> & Co'],
  ['#set($n = 2)#if($n > 1)many#end', 'many'],
  ['## a comment\nline', 'line'],
  ['a#* block\ncomment *#b', 'ab'],
  ['#[[$not #parsed]]#', '$not #parsed'],
  ['$!{missing}|${lang}|$!lang', '|fr|fr'],
  ["#set($s = 'single $lang')$s", 'single $lang'],
  ['#set($s = "double $lang")$s', 'double fr'],
  ['#foreach($i in [1..3])$foreach.count/$velocityCount/$i#if($foreach.hasNext),#end#end', '1/1/1,2/2/2,3/3/3'],
  ['#foreach($i in [3..1])$i#end', '321'],
  ['#set($n = 3)#foreach($i in [1..$n])$i#end', '123'],
  ['#foreach($x in ["a", 2, true])$x;#end', 'a;2;true;'],
  ['$signers[1]|$!signers[9]', 'Bob|'],
  ['#set($l = [1, "b"])$l', '[1, b]'],
  ['#set($m = {"k": "v"})$m.k', 'v'],
  ['#set($x = 7 / 2)#set($y = 7 % 4)#set($z = -1 + 2 * 3)$x $y $z', '3 3 5'],
  ['#set($d = 1.5 * 2)$d', '3'],
  ['#set($c = "a" + 1)$c', 'a1'],
  ['#if(1 < 2 && !(2 <= 1) || false)yes#end', 'yes'],
  ['#if($lang == "fr" and $requiresOTP == false)both#end', 'both'],
  ['#if("")a#elseif(0)b#elseif([])c#else d#end', ' d'],
  ['#if($missing)a#else b#end', ' b'],
  ['#set($e = {})#set($f = {"k": 1})#if($e)a#end#if($f)b#end', 'b'],
  ['#set($x = $missing)[$!x]', '[]'],
  ['#macro(item $t)<li>$t</li>#end#foreach($s in $signers)#item($s)#end', '<li>Ann</li><li>Bob</li><li>Cy</li>'],
  ['#hello()#macro(hello)hi#end', 'hi'],
  ['#foreach($s in $signers)#set($last = $s)#end$last', 'Cy'],
];

describe('velocity templates', () => {
  for (const [source, expected] of CASES)
    it(`${JSON.stringify(source)} → ${JSON.stringify(expected)}`, () => assert.equal(html(source), expected));

  it('plain templates (subjects, text parts) do not escape', () => {
    assert.equal(text('To $signeeName'), 'To Zoé <b>Durand</b> & Co');
  });

  it('urlEncode takes any text, a lone surrogate included (U+FFFD, never a URIError)', () => {
    assert.equal(text('$tools.urlEncode($x)', { x: 'a\ud800b 😀' }), 'a%EF%BF%BDb%20%F0%9F%98%80');
  });

  it('$raw in a plain template is the value as given too', () => {
    assert.equal(text('$raw.signeeName|$signeeName'), 'Zoé <b>Durand</b> & Co|Zoé <b>Durand</b> & Co');
  });

  it('custom variables given by the request are usable', () => {
    assert.equal(html('Ref. $contractRef', { contractRef: 'C-42 <x>' }), 'Ref. C-42 &lt;x&gt;');
  });

  const refused: [string, RegExp][] = [
    ['$signeeName.toUpperCase()', /line 1: "toUpperCase\(…\)": only \$tools\.urlEncode/],
    ['line\n#set($f = $signeeName.getClass())', /line 2: "getClass/],
    ['$signeeName.constructor', /property "constructor"/],
    ['$signeeName.__proto__', /property "__proto__"/],
    ['#set($k = "constructor")$signeeName[$k]', /index must be a number or a string written/],
    ['$signeeName["constructor"]', /property "constructor"/],
    ['#include("/etc/passwd")', /#include is not available/],
    ['#parse("x.vm")', /#parse is not available/],
    ['#evaluate("$x")', /#evaluate is not available/],
    ['#set($s = "$signeeName.toString()")$s', /"toString\(…\)"/],
    ['#nosuchmacro()', /neither a directive nor a macro/],
    ['#if($lang == "fr") never closed', /not closed by #end/],
    ['#foreach($s in $signers)$s', /not closed by #end/],
    ['text #end more text', /an #end closes no block/],
    ['one\ntwo\n#foreach($a in ) x', /line 3: cannot parse/],
  ];
  for (const [source, message] of refused)
    it(`refuses ${JSON.stringify(source)} at compile time`, () => {
      assert.throws(
        () =>
          engine.compile(source, {
            html: true,
            label: 'signatureRequestSigneeEmailContentTemplate',
            maxLength: BODY_MAX_LENGTH,
          }),
        (err: unknown) =>
          err instanceof DomainError &&
          err.code === 'INVALID_TEMPLATE' &&
          err.message.startsWith('signatureRequestSigneeEmailContentTemplate: ') &&
          message.test(err.message),
      );
    });

  it('a macro of the template itself may be called', () => {
    assert.equal(html('#macro(hi $who)Hi $who#end#hi("Ann")'), 'Hi Ann');
  });
});

describe('velocity templates: edges of the block check', () => {
  it('a template ending in a comment or a lone # still compiles', () => {
    assert.equal(html('Hi ## trailing comment'), 'Hi ');
    assert.equal(html('50 #'), '50 #');
  });
});
