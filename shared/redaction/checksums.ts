/** The check digits and number plans the numeric detectors verify, so a random number is rarely taken for PII. */

/** Luhn (ISO/IEC 7812), the check digit of every payment card number. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * A payment card number: 13 to 19 digits, an issuer's first digit (2 and 5 Mastercard, 3 Amex,
 * Diners and JCB, 4 Visa, 6 Discover, UnionPay and Maestro), Luhn.
 */
export function cardNumberValid(digits: string): boolean {
  return digits.length >= 13 && digits.length <= 19 && /^[2-6]/.test(digits) && luhnValid(digits);
}

/** The ABA routing number's checksum: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10), with a Federal Reserve prefix. */
export function abaRoutingValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const prefix = Number(digits.slice(0, 2));
  // 00 is the US Government, 01–12 the Federal Reserve districts, 21–32 thrift institutions, 61–72 electronic, 80 traveller's cheques.
  if (!(prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80)) return false;
  const d = [...digits].map(Number);
  return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

/** The Social Security Administration's rules: no area 000, 666 or 900–999; no group 00; no serial 0000. */
export function ssnValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const area = digits.slice(0, 3);
  return area !== '000' && area !== '666' && area[0] !== '9' && digits.slice(3, 5) !== '00' && digits.slice(5) !== '0000';
}

/** A North American number: area code and exchange not starting with 0 or 1 (NANP), optionally after the country code 1. */
export function nanpPhoneValid(digits: string): boolean {
  const national = digits.length === 11 && digits[0] === '1' ? digits.slice(1) : digits;
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(national);
}

/** An IBAN: country, check digits and account, mod 97 = 1 (ISO 13616). */
export function ibanValid(text: string): boolean {
  const iban = text.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}
