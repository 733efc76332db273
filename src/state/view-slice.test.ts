import { loggedOut } from './session-slice';
import { carriedViewQuery, serviceCodeDayChosen, viewReducer } from './view-slice';

describe('the chosen view', () => {
  it('keeps what was chosen, each part on its own, and forgets it at logout', () => {
    let state = viewReducer(undefined, serviceCodeDayChosen({ serviceCode: '*217*5#' }));
    state = viewReducer(state, serviceCodeDayChosen({ date: '2026-11-26' }));
    expect(state).toEqual({ serviceCode: '*217*5#', date: '2026-11-26' });
    expect(viewReducer(state, loggedOut())).toEqual({ serviceCode: null, date: null });
  });

  it('becomes the query of a link: nothing chosen, nothing carried; every code is an empty name', () => {
    expect(carriedViewQuery({ serviceCode: null, date: null })).toBe('');
    expect(carriedViewQuery({ serviceCode: '*217*5#', date: '2026-11-26' })).toBe('name=*217*5%23&date=2026-11-26');
    expect(new URLSearchParams(carriedViewQuery({ serviceCode: '', date: null })).get('name')).toBe('');
  });
});
