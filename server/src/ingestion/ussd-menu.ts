// The menu is a pure function of the code's data: it lives in src/domain, where the campaign
// form's preview draws the same screens a voter will see.
export * from '../../../src/domain/ussd-menu';
