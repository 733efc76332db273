import { throttled } from './throttle';

describe('throttled', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs at once when quiet, then once at the end of the window for a burst', () => {
    const work = jest.fn();
    const ask = throttled(work, 2000);
    ask();
    expect(work).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i += 1) ask();
    expect(work).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(2000);
    expect(work).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(5000);
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('cancel drops what was waiting', () => {
    const work = jest.fn();
    const ask = throttled(work, 2000);
    ask();
    ask();
    ask.cancel();
    jest.advanceTimersByTime(5000);
    expect(work).toHaveBeenCalledTimes(1);
  });
});
