import { pageCount, showingText, stepPage } from './grid-paging';
import { apiPageToGridPage, rowNumber } from './paged-list';

describe('server grid paging', () => {
  it("converts the API's 1-based page to the grid's 0-based one", () => {
    expect(apiPageToGridPage(1)).toBe(0);
    expect(apiPageToGridPage(5)).toBe(4);
    expect(apiPageToGridPage(0)).toBe(0);
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(120, 50)).toBe(3);
  });

  it('moves one page at a time and never leaves 1..pages', () => {
    expect(stepPage(1, -1, 5)).toBe(1);
    expect(stepPage(2, -1, 5)).toBe(1);
    expect(stepPage(4, 1, 5)).toBe(5);
    expect(stepPage(5, 1, 5)).toBe(5);
    expect(stepPage(1, 1, 1)).toBe(1);
  });

  it('numbers rows across pages and writes the footer', () => {
    expect(rowNumber(0, 1, 10)).toBe(1);
    expect(rowNumber(2, 3, 50)).toBe(103);
    expect(showingText(10, 42)).toBe('Showing 10 out of 42 entries');
  });
});
