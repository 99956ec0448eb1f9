/**
 * The masked phone of a signer's own view (`maskedPhone`): the country code, the first digit of the national
 * number and the last two, every other digit hidden, in the country's grouping; whatever the spelling.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { maskPhone } from '../../../src/core/signature-requests/phone.js';

describe('maskPhone', () => {
  it('hides all but the first national digit and the last two, grouped as the country writes numbers', () => {
    assert.equal(maskPhone('33', '612345678'), '+33 6 •• •• •• 78');
    assert.equal(maskPhone('+33', '06 12 34 56 78'), '+33 6 •• •• •• 78');
    assert.equal(maskPhone('44', '07400123456'), '+44 7••• ••••56');
    assert.equal(maskPhone('1', '2015550123'), '+1 2•• ••• ••23');
  });

  it('keeps exactly three digits of the number, and its shape is the library’s international format', () => {
    for (const [cc, phone] of [
      ['33', '612345678'],
      ['44', '7400123456'],
      ['49', '15123456789'],
      ['225', '0707070707'],
    ] as const) {
      const masked = maskPhone(cc, phone);
      const national = masked.slice(cc.length + 2);
      assert.equal(national.replace(/\D/g, '').length, 3, masked);
      assert.ok(!masked.includes(phone.slice(1, -2)), masked);
      const formatted = parsePhoneNumberFromString(`+${cc}${phone}`)!.formatInternational();
      assert.equal(masked.replace(/•/g, '0').replace(/\d/g, '0'), formatted.replace(/\d/g, '0'));
    }
  });

  it('masks a number it cannot parse too, never giving it whole', () => {
    assert.equal(maskPhone('33', '12345'), '+33 1••45');
    assert.equal(maskPhone('33', '0000000000'), '+33 0•••••••00');
  });
});
