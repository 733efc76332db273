import { followedLiveCodes, followLive, liveCodesCover, livePath, onLivePathChange } from './live-follow';

describe('the codes followed live', () => {
  it('follows everything until a screen follows a code, the union of the codes shown, everything again when one shows every code', () => {
    const changes: string[] = [];
    const stop = onLivePathChange(() => changes.push(livePath()));
    expect(livePath()).toBe('/v1/live');

    const list = followLive('*217*4#');
    const chart = followLive('*100#');
    const sameCode = followLive('*217*4#');
    expect(followedLiveCodes()).toEqual(['*100#', '*217*4#']);
    expect(livePath()).toBe('/v1/live?serviceCode=*100%23&serviceCode=*217*4%23');

    const everyCode = followLive(null);
    expect(livePath()).toBe('/v1/live');
    everyCode();
    chart();
    // Another screen still follows it: no change.
    sameCode();
    expect(livePath()).toBe('/v1/live?serviceCode=*217*4%23');
    list();
    list();
    expect(livePath()).toBe('/v1/live');
    expect(changes).toEqual([
      '/v1/live?serviceCode=*217*4%23',
      '/v1/live?serviceCode=*100%23&serviceCode=*217*4%23',
      '/v1/live',
      '/v1/live?serviceCode=*100%23&serviceCode=*217*4%23',
      '/v1/live?serviceCode=*217*4%23',
      '/v1/live',
    ]);
    stop();
  });

  it('knows when an older stream carried every call a newer one will (no need to read again)', () => {
    expect(liveCodesCover(undefined, ['*100#'])).toBe(true);
    expect(liveCodesCover(undefined, undefined)).toBe(true);
    expect(liveCodesCover(['*100#', '*217*4#'], ['*100#'])).toBe(true);
    expect(liveCodesCover(['*100#'], ['*217*4#'])).toBe(false);
    expect(liveCodesCover(['*100#'], undefined)).toBe(false);
  });
});
