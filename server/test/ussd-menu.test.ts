import { CATEGORY_LEVELS } from '../../src/domain/category-levels';
import { toGsm7 } from '../../src/domain/ussd-text';
import { isUssdReply } from './ussd-reply';
import { WORLD_CUP_2022 } from '../src/db/seed-data';
import { ussdMenu, type CampaignService, type CatalogueService } from '../src/ingestion/ussd-menu';

const tips: CatalogueService = {
  kind: 'catalogue',
  categoryName: 'Premier League Tips',
  levels: [
    { level: 'ordinary', price: 1000 },
    { level: 'vip', price: 6000 },
  ],
};
/** Every level priced: the list needs pages. */
const everything: CatalogueService = {
  kind: 'catalogue',
  categoryName: 'Jackpot',
  levels: CATEGORY_LEVELS.map((level, i) => ({ level, price: 1000 + i * 500 })),
};
const worldCup = (cap: number | null = null, votesCast: Record<string, number> = {}): CampaignService => ({
  kind: 'campaign',
  name: 'World Cup 2022',
  closed: false,
  rounds: WORLD_CUP_2022.rounds.map((round) => ({ ...round, open: true })),
  teams: WORLD_CUP_2022.teams,
  price: 500,
  cap,
  votesCast,
});

const menu = (service: Parameters<typeof ussdMenu>[0], text: string) => {
  const answer = ussdMenu(service, text);
  expect(isUssdReply(answer.reply)).toBe(true);
  return answer;
};
/** The numbered options of a reply, as [number, label]. */
const options = (reply: string) =>
  reply.split('\n').flatMap((line) => {
    const option = /^(\d+)\. (.*)$/.exec(line);
    return option ? [[option[1], option[2]]] : [];
  });

describe('the ticket menu', () => {
  it('offers the levels, asks to confirm the price, then requests the payment', () => {
    expect(menu(tips, '').reply).toBe('CON Premier League Tips: choose a ticket\n1. Ordinary UGX 1,000\n2. VIP UGX 6,000');
    expect(menu(tips, '2').reply).toBe('CON Pay UGX 6,000 for VIP (Premier League Tips)?\n1. Confirm\n2. Cancel');
    expect(menu(tips, '2*1')).toEqual({
      reply: 'END Approve the payment of UGX 6,000 on your phone. Your VIP ticket will come by SMS.',
      action: { kind: 'purchase', level: 'vip', amount: 6000 },
    });
  });

  it('cancels politely and charges nothing', () => {
    expect(menu(tips, '1*2')).toEqual({ reply: 'END Cancelled. You have not been charged. Thank you.', action: undefined });
  });

  it('pages a long list with 98. More and 0. Back, numbering across pages', () => {
    const first = menu(everything, '').reply;
    expect(first).toMatch(/\n98\. More$/);
    expect(first).not.toMatch(/0\. Back/);
    const second = menu(everything, '98').reply;
    expect(second).toMatch(/\n98\. More\n0\. Back$/);
    const firstNumbers = options(first).map(([n]) => n).filter((n) => n !== '98');
    const secondNumbers = options(second).map(([n]) => n).filter((n) => n !== '98' && n !== '0');
    expect(Number(secondNumbers[0])).toBe(Number(firstNumbers[firstNumbers.length - 1]) + 1);
    // Back returns to the first page, exactly as it was.
    expect(menu(everything, '98*0').reply).toBe(first);
    // Every level is reachable by paging to the end.
    let text = '';
    const seen: string[] = [];
    for (;;) {
      const reply = menu(everything, text).reply;
      seen.push(...options(reply).filter(([n]) => n !== '98' && n !== '0').map(([, label]) => label));
      if (!reply.includes('98. More')) break;
      text = text ? `${text}*98` : '98';
    }
    expect(seen).toHaveLength(CATEGORY_LEVELS.length);
    // A choice from the second page.
    expect(menu(everything, `98*${secondNumbers[0]}`).reply).toMatch(/^CON Pay UGX [\d,]+ for .* \(Jackpot\)\?\n1\. Confirm\n2\. Cancel$/);
    // Back from the confirm question is not offered; from a later page it is.
    expect(menu(everything, `98*${secondNumbers[0]}*0`).reply).toMatch(/^CON Invalid choice\.\nPay/);
  });

  it('re-asks a bad answer once with the same page, then ends politely', () => {
    expect(menu(tips, '7').reply).toBe('CON Invalid choice.\nPremier League Tips: choose a ticket\n1. Ordinary UGX 1,000\n2. VIP UGX 6,000');
    expect(menu(tips, 'x*2').reply).toMatch(/^CON Pay UGX 6,000/);
    expect(menu(tips, '7*7')).toEqual({ reply: 'END Sorry, that is not a valid choice. Please dial again.' });
    expect(menu(tips, '2*5')).toEqual({ reply: expect.stringMatching(/^CON Invalid choice\.\nPay UGX 6,000/) });
    expect(menu(tips, '2*5*1').action).toEqual({ kind: 'purchase', level: 'vip', amount: 6000 });
    // 98 on the only page and 0 on the first screen are bad answers too.
    expect(menu(tips, '98').reply).toMatch(/^CON Invalid choice/);
    expect(menu(tips, '0*0').reply).toMatch(/^END Sorry/);
    expect(menu(everything, '98*98*98*98*98*98*98*98*98*98*98').reply).toMatch(/^END /);
  });

  it('ends an unknown or unpriced code, and answers nothing after an END', () => {
    expect(menu(null, '')).toEqual({ reply: 'END This service is not available' });
    expect(menu({ ...tips, levels: [] }, '').reply).toBe('END This service is not available');
    // Answers after an END repeat it and ask for nothing.
    expect(menu(tips, '1*1*1')).toEqual({ reply: menu(tips, '1*1').reply });
    expect(menu(tips, '1*2*1')).toEqual({ reply: 'END Cancelled. You have not been charged. Thank you.' });
  });

  it('keeps names from the catalogue GSM-7 and within 182 characters', () => {
    const odd: CatalogueService = { kind: 'catalogue', categoryName: 'Côte d’Ivoire – Ligue 1 “Spéciale” 🎉 ' + 'x'.repeat(200), levels: tips.levels };
    const reply = menu(odd, '').reply;
    expect(reply.startsWith("CON Cote d'Ivoire - Ligue 1 \"Spéciale\" xxx")).toBe(true);
    expect(menu(odd, '2').reply).toMatch(/^CON Pay UGX 6,000 for VIP \(Cote.*\.\.\)\?\n1\. Confirm\n2\. Cancel$/);
    expect(toGsm7('Zürich\nFC\tŁódź')).toBe('Zürich FC Lodz');
  });
});

describe('the campaign menu', () => {
  it('offers the rounds, then a general round\'s teams, and records the picked team', () => {
    expect(menu(worldCup(), '').reply).toBe('CON World Cup 2022: choose a round\n1. General\n2. Week 2\n3. Week 3\n4. Week 4\n5. Final');
    const teams = menu(worldCup(), '1').reply;
    expect(teams).toMatch(/^CON General: pick your team\n1\. Argentina\n2\. France\n/);
    expect(menu(worldCup(), '1*2').reply).toBe('CON Vote France (General) for UGX 500?\n1. Confirm\n2. Cancel');
    expect(menu(worldCup(), '1*2*1')).toEqual({
      reply: 'END Approve the payment of UGX 500 on your phone to record your vote for France.',
      action: { kind: 'vote', round: 'general', teamName: 'France', teamName2: null, amount: 500 },
    });
    // Back from the teams to the rounds.
    expect(menu(worldCup(), '1*0').reply).toBe(menu(worldCup(), '').reply);
  });

  it('offers a games round\'s own games (the real knock-out games), then the winner; the opponent is teamName2', () => {
    expect(menu(worldCup(), '3').reply).toBe(
      'CON Week 3: choose a game\n1. Croatia vs Brazil\n2. Netherlands vs Argentina\n3. Morocco vs Portugal\n4. England vs France\n0. Back',
    );
    expect(menu(worldCup(), '3*2').reply).toBe('CON Who wins Netherlands vs Argentina?\n1. Netherlands\n2. Argentina\n0. Back');
    expect(menu(worldCup(), '3*2*2*1').action).toEqual({ kind: 'vote', round: 'week3', teamName: 'Argentina', teamName2: 'Netherlands', amount: 500 });
  });

  it('goes straight to the final\'s two teams', () => {
    expect(menu(worldCup(), '5').reply).toBe('CON Who wins Argentina vs France?\n1. Argentina\n2. France\n0. Back');
    expect(menu(worldCup(), '5*1*1').action).toEqual({ kind: 'vote', round: 'final', teamName: 'Argentina', teamName2: 'France', amount: 500 });
  });

  it('skips the round question for a one-round campaign', () => {
    const afcon: CampaignService = { ...worldCup(), name: 'AFCON 2024', rounds: [{ key: 'general', label: 'General', kind: 'teams', open: true }], teams: ['Ivory Coast', 'Nigeria'] };
    expect(menu(afcon, '').reply).toBe('CON General: pick your team\n1. Ivory Coast\n2. Nigeria');
  });

  it('ends politely, offering nothing, for a closed campaign or one without an open round', () => {
    expect(menu({ ...worldCup(), closed: true }, '')).toEqual({ reply: 'END Voting is closed. You have not been charged. Thank you.' });
    expect(menu({ ...worldCup(), closed: true }, '1*1*1')).toEqual({ reply: 'END Voting is closed. You have not been charged. Thank you.' });
    expect(menu({ ...worldCup(), rounds: [] }, '')).toEqual({ reply: 'END Voting is closed. You have not been charged. Thank you.' });
  });

  it('ends politely when the chosen round has closed since the session began, whatever was answered after', () => {
    const closing = worldCup();
    closing.rounds[2] = { ...closing.rounds[2], open: false };
    // The numbers keep meaning the rounds offered when the session began: 3 is still Week 3.
    expect(menu(closing, '').reply).toBe(menu(worldCup(), '').reply);
    expect(menu(closing, '3*2*1*1')).toEqual({ reply: 'END Voting for Week 3 has closed. You have not been charged. Thank you.' });
    expect(menu(closing, '4*1*1*1').action).toMatchObject({ round: 'week4', teamName: 'Argentina', teamName2: 'Croatia' });
  });

  it('ends politely past the vote cap, for that round only, before anything is chosen', () => {
    const capped = worldCup(2, { week2: 2, general: 1 });
    expect(menu(capped, '2')).toEqual({ reply: 'END You have cast your 2 votes for Week 2. Thank you for voting!' });
    // A session that was choosing when the cap filled up is told so at its next answer.
    expect(menu(capped, '2*1*1*1')).toEqual({ reply: 'END You have cast your 2 votes for Week 2. Thank you for voting!' });
    expect(menu(capped, '1').reply).toMatch(/^CON General: pick your team/);
    expect(menu(worldCup(1, { general: 1 }), '1').reply).toBe('END You have cast your 1 vote for General. Thank you for voting!');
  });
});
