import { HttpError } from './http/http-error';

/** The answer when a user name is in use, shared by creating an account and editing one. */
export const userNameTaken = (userName: string) =>
  new HttpError(409, `Username ${userName} already taken`, [{ field: 'userName', message: `Username ${userName} already taken` }]);
