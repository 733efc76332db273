import { campaignName, votePick } from './campaigns';
import { transactionCsvLine } from './transaction-csv';
import type { Transaction } from './entities';

describe('votePick', () => {
  it('reads a game vote as its pick, the game, the campaign and the round', () => {
    expect(votePick({ teamName: 'Croatia', teamName2: 'Australia', campaignKey: 'world-cup-2022', round: 'week2' })).toEqual({
      pick: 'Croatia',
      game: 'Australia vs Croatia',
      campaign: 'World Cup 2022',
      round: 'week2',
    });
  });

  it('has no game for a general pick, and no vote for a call without a team', () => {
    expect(votePick({ teamName: 'Nigeria', teamName2: null, campaignKey: 'afcon-2024', round: 'general' })).toMatchObject({ pick: 'Nigeria', game: '', campaign: 'AFCON 2024' });
    expect(votePick({ teamName: null, campaignKey: null })).toBeNull();
  });

  it('names an unknown campaign by its key', () => {
    expect(campaignName('euro-2028')).toBe('euro-2028');
  });
});

it('exports a vote with its pick and game in the last two CSV columns', () => {
  const vote: Transaction = {
    _id: 'v1',
    name: '*217*50#',
    shortCode: { name: '*217*50#' },
    phoneNumber: '256772000111',
    network: 'MTN',
    createdAt: '2022-12-03T15:00:00Z',
    isComplete: true,
    isDeleted: false,
    isResolved: false,
    campaignKey: 'world-cup-2022',
    round: 'week2',
    teamName: 'Croatia',
    teamName2: 'Australia',
  };
  expect(transactionCsvLine(vote)).toMatch(/,Croatia,Australia vs Croatia,,,,0\r\n$/);
});
