import { ObjectSchema, type AnyObjectSchema } from 'yup';
import { validate } from '../validation';
import * as auth from './auth';
import * as catalogue from './catalogue';
import { isCleanText, text } from './text';
import * as transactions from './transactions';
import * as user from './user';

describe('isCleanText', () => {
  it('refuses NUL, other control characters and lone surrogates; line breaks only when multiline', () => {
    expect(isCleanText('Kato Okello *217*4# 😀')).toBe(true);
    for (const bad of ['a\u0000', '\u0007', '\u001b[2J', '\u007f', '\u0085', '\ud800', 'x\udc00y']) expect(isCleanText(bad, true)).toBe(false);
    expect(isCleanText('Gate 4\r\nSeat 12\t')).toBe(false);
    expect(isCleanText('Gate 4\r\nSeat 12\t', true)).toBe(true);
  });

  it('gives text fields a limit', async () => {
    await expect(text(5).validate('123456')).rejects.toThrow('Must be at most 5 characters');
  });
});

const schemas = Object.values({ ...auth, ...catalogue, ...transactions, ...user }).filter((value) => value instanceof ObjectSchema) as AnyObjectSchema[];

describe('every schema', () => {
  it('answers a wrong type in a number or boolean field with a short message that does not echo it', async () => {
    let checked = 0;
    for (const schema of schemas) {
      for (const [name, field] of Object.entries(schema.fields as unknown as Record<string, { type: string }>)) {
        if (field.type !== 'number' && field.type !== 'boolean') continue;
        const result = await validate(schema, { [name]: 'not-the-right-type-'.repeat(50) });
        const error = result.ok ? undefined : result.errors.find((e) => e.field === name);
        expect(error?.message).toBe('Invalid value');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('limits every text field', () => {
    for (const schema of schemas) {
      for (const [name, field] of Object.entries(schema.describe().fields as Record<string, { type: string; tests: { name?: string }[] }>)) {
        if (field.type !== 'string') continue;
        const limited = field.tests.some((t) => t.name === 'max' || t.name === 'length' || t.name === 'sms-length');
        expect({ name, limited }).toEqual({ name, limited: true });
      }
    }
  });
});
