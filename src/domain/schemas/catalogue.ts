import * as yup from 'yup';
import { CATEGORY_LEVELS, REQUIRED_PRICE_LEVELS, SMS_CATEGORY_LEVELS, type CategoryLevel } from '../category-levels';
import { PHONE_FORMAT_MESSAGE, PHONE_PATTERN } from '../phone';
import { describeCharacter, firstNonGsm7, fitsSmsLimit, SMS_MAX_LENGTH } from '../sms-segments';
import { flag, INVALID_VALUE, isCleanText, text } from './text';

/** Descriptions are notes for staff; the lists show their first 20 characters. */
const DESCRIPTION_MAX = 500;
const description = () => text(DESCRIPTION_MAX, { multiline: true }).trim().optional().nullable();

/** Empty inputs become undefined so that `required` speaks, not `typeError`. */
const emptyToUndefined = (value: unknown, original: unknown) =>
  original === '' || original === null ? undefined : value;

/** Prices are stored as whole shillings in an integer column; beyond this is a typing slip. */
const MAX_PRICE = 100_000_000;

const requiredPrice = yup
  .number()
  .transform(emptyToUndefined)
  .typeError('Invalid value')
  .required('Please specify the price')
  .min(0, 'Invalid value')
  .max(MAX_PRICE, 'Invalid value');

const optionalPrice = yup
  .number()
  .transform(emptyToUndefined)
  .typeError('Invalid value')
  .min(0, 'Invalid value')
  .max(MAX_PRICE, 'Invalid value')
  .nullable()
  .optional();

const priceShape = Object.fromEntries(
  CATEGORY_LEVELS.map((level) => [level, REQUIRED_PRICE_LEVELS.includes(level) ? requiredPrice : optionalPrice]),
) as Record<CategoryLevel, typeof optionalPrice>;

/** A select left on '--Select--' carries '0' (SPEC §5); its values are ids or level names. */
const selected = (message: string) => text(100).required(message).notOneOf(['0'], message);

export const categorySchema = yup.object({
  name: text(100, { tooLong: 'Category name is too long' }).trim().required('Please provide the category name'),
  description: description(),
  user: selected('Please select the agent'),
  ...priceShape,
});
export type CategoryInput = yup.InferType<typeof categorySchema>;

/** A USSD service code such as *217*4#. */
export const SERVICE_CODE_PATTERN = /^\*\d{1,4}(\*\d{1,4})*#$/;

export const serviceCodeSchema = yup.object({
  name: text(50, { tooLong: 'A service code looks like *217*4#' })
    .trim()
    .required('Please provide the code')
    .matches(SERVICE_CODE_PATTERN, 'A service code looks like *217*4#'),
  description: description(),
  category: selected('Please select the category'),
});
export type ServiceCodeInput = yup.InferType<typeof serviceCodeSchema>;

/** SMS text may break lines (GSM-7 has both line breaks); the length test below bounds it. */
const smsMessage = (requiredMessage: string) =>
  yup
    .string()
    .typeError(INVALID_VALUE)
    .required(requiredMessage)
    .test('clean-text', INVALID_VALUE, (value) => value === undefined || isCleanText(value, true))
    .test('sms-length', `Message must be at most ${SMS_MAX_LENGTH} characters`, (value) => value === undefined || fitsSmsLimit(value));

export const contentSchema = yup.object({
  name: text(100).trim().optional().nullable(),
  description: description(),
  category: selected('Please select the category'),
  categoryLevel: selected('Please select the category level').oneOf([...CATEGORY_LEVELS], 'Please select the category level'),
  message: smsMessage('Please the message').test('gsm7', function gsm7(value) {
    const outside = value === undefined ? undefined : firstNonGsm7(value);
    return outside === undefined || this.createError({ message: `Use only characters of the GSM-7 alphabet: ${describeCharacter(outside)} is not one` });
  }),
  active: flag().optional(),
});
export type ContentInput = yup.InferType<typeof contentSchema>;

export const smsSchema = yup.object({
  categoryLevel: selected('Please select the category level').oneOf([...SMS_CATEGORY_LEVELS], 'Please select the category level'),
  phoneNumber: text(20, { tooLong: PHONE_FORMAT_MESSAGE }).trim().required(PHONE_FORMAT_MESSAGE).length(12, PHONE_FORMAT_MESSAGE).matches(PHONE_PATTERN, PHONE_FORMAT_MESSAGE),
  message: smsMessage('Please provide the message'),
});
export type SmsInput = yup.InferType<typeof smsSchema>;
