import { debounced, throttled } from './throttle';

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

describe('debounced', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs once, the given time after the last ask of a burst; cancel drops it', () => {
    const work = jest.fn();
    const ask = debounced(work, 1500);
    ask();
    jest.advanceTimersByTime(1000);
    ask();
    jest.advanceTimersByTime(1499);
    expect(work).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);
    ask();
    ask.cancel();
    jest.advanceTimersByTime(5000);
    expect(work).toHaveBeenCalledTimes(1);
  });
});
