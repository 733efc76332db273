import { categoryLevelLabel } from './category-levels';
import { roundChoice, type CampaignRound, type Game } from './campaign-rounds';
import { formatMoney } from './format';
import { gsm7Length } from './sms-segments';
import { clipGsm7, toGsm7, USSD_MAX_LENGTH } from './ussd-text';

/** A ticket service code: its category's levels that have a price and an active content. */
export interface CatalogueService {
  kind: 'catalogue';
  categoryName: string;
  levels: { level: string; price: number }[];
}

/** A round a session is offered, and whether it still takes votes now. */
export interface OfferedRound extends CampaignRound {
  open: boolean;
}

/** A campaign's service code, with what this phone number already voted per round (processed or pending). */
export interface CampaignService {
  kind: 'campaign';
  name: string;
  /** A closed campaign's code ends every session politely. */
  closed: boolean;
  /**
   * The rounds open when the session started, in the campaign's order: the menu's numbers keep
   * meaning the same round for the whole session, whatever opens or closes meanwhile.
   */
  rounds: OfferedRound[];
  teams: string[];
  /** UGX per vote. */
  price: number;
  /** Votes one number may cast per round; null: no cap. */
  cap: number | null;
  votesCast: Record<string, number>;
}

export type UssdService = CatalogueService | CampaignService;

/** What a confirmed menu asks the route to do: create the pending call and request its payment. */
export type UssdAction =
  | { kind: 'purchase'; level: string; amount: number }
  | { kind: 'vote'; round: string; teamName: string; teamName2: string | null; amount: number };

export interface UssdAnswer {
  /** `CON …` (the session goes on) or `END …`, at most 182 GSM-7 characters. */
  reply: string;
  action?: UssdAction;
}

export const USSD_REPLIES = {
  notAvailable: 'END This service is not available',
  cancelled: 'END Cancelled. You have not been charged. Thank you.',
  badInput: 'END Sorry, that is not a valid choice. Please dial again.',
  busy: 'END Sorry, the service is busy. Please try again later.',
  paymentUnavailable: 'END Payment is unavailable, please try again later.',
  /** The provider could not say whether it took the request: the call stays pending for the sweeper to ask. */
  paymentUnconfirmed: 'END We could not confirm your payment request. If your phone asks, approve it and your ticket will come by SMS.',
  /** Past USSD_CONFIRMS_PER_MINUTE payments from one number in a minute: nothing is requested. */
  tooManyPayments: 'END You have asked for several payments in a short time. Please try again in a minute.',
  /** A session id another phone number already used: nothing is requested. */
  foreignSession: 'END This session cannot be continued. Please dial again.',
  /** More answers than any menu needs: the session ends and nothing more is recorded. */
  tooLong: 'END This session is too long. Please dial again.',
  /** A closed campaign, or one with no round open: nothing is offered or charged. */
  voteClosed: 'END Voting is closed. You have not been charged. Thank you.',
} as const;

/** Answers a session may give; a real one needs fewer than 15, paging included. */
export const MAX_SESSION_ANSWERS = 40;

/** Shown above the same page once after a bad answer. */
const NOTICE = 'Invalid choice.\n';
const MORE = '98';
const BACK = '0';
/** Room kept for '\n98. More\n0. Back', so a page holds the same options whatever its footer. */
const FOOTER_ROOM = gsm7Length(`\n${MORE}. More\n${BACK}. Back`);
const TITLE_MAX = 70;
const OPTION_MAX = 40;
/** Options are numbered 1…97 across pages; 98 and 0 page. */
const MAX_OPTIONS = 97;

interface Screen {
  title: string;
  options: string[];
  choose(index: number): Step;
  /** The confirm screen offers Cancel instead of Back. */
  noBack?: boolean;
}

interface Ending {
  end: string;
  action?: UssdAction;
}

type Step = Screen | Ending;

const ending = (end: string, action?: UssdAction): Ending => ({ end, action });
const isEnding = (step: Step): step is Ending => 'end' in step;
const money = (amount: number) => `UGX ${formatMoney(amount)}`;
/** A catalogue name as a handset can show it. */
const shown = (name: string, max = OPTION_MAX) => clipGsm7(toGsm7(name) || '?', max);
const roundShown = (label: string) => shown(label, 20);

/**
 * The USSD menu (DESIGN §6) as a pure function of the service code's data and the accumulated
 * `text` (every answer so far joined by '*'): any instance answers any hop, and the same hop
 * answers the same. Long lists page with '98. More' and '0. Back'; a bad answer re-asks the same
 * page once, a second in a row ends the session.
 */
export function ussdMenu(service: UssdService | null, text: string): UssdAnswer {
  const first = service ? startOf(service) : ending(USSD_REPLIES.notAvailable);
  const answers = text === '' ? [] : text.split('*').map((answer) => answer.trim());
  if (answers.length > MAX_SESSION_ANSWERS) return { reply: USSD_REPLIES.tooLong };
  if (isEnding(first)) return answers.length === 0 ? { reply: first.end, action: first.action } : { reply: first.end };

  const stack: { screen: Screen; page: number }[] = [{ screen: first, page: 0 }];
  let strikes = 0;
  for (const [i, answer] of answers.entries()) {
    const top = stack[stack.length - 1];
    const pages = pagesOf(top.screen);
    const numbers = pages[top.page];
    const canGoBack = top.page > 0 || (stack.length > 1 && !top.screen.noBack);
    const chosen = /^\d{1,2}$/.test(answer) ? Number(answer) : NaN;
    let next: Step | undefined;
    if (answer === MORE && top.page < pages.length - 1) top.page += 1;
    else if (answer === BACK && canGoBack) {
      if (top.page > 0) top.page -= 1;
      else stack.pop();
    } else if (numbers.includes(chosen)) next = top.screen.choose(chosen - 1);
    else {
      strikes += 1;
      if (strikes < 2) continue;
      return { reply: USSD_REPLIES.badInput };
    }
    strikes = 0;
    if (!next) continue;
    // Nothing follows an END: later answers in the same session repeat it and ask for nothing.
    if (isEnding(next)) return i === answers.length - 1 ? { reply: next.end, action: next.action } : { reply: next.end };
    stack.push({ screen: next, page: 0 });
  }
  const top = stack[stack.length - 1];
  return { reply: render(top.screen, top.page, stack.length > 1, strikes > 0) };
}

/** The reply when a number already cast its votes for the round (`label`, the round's label). */
export function voteCapReply(cap: number, label: string): string {
  return `END You have cast your ${cap} ${cap === 1 ? 'vote' : 'votes'} for ${roundShown(label)}. Thank you for voting!`;
}

/** The reply when the round a session chose closed before its vote was made: nothing is charged. */
export function roundClosedReply(label: string): string {
  return `END Voting for ${roundShown(label)} has closed. You have not been charged. Thank you.`;
}

/** Option numbers (1-based) on each page: as many as fit beside the title, the notice and both footer lines. */
function pagesOf(screen: Screen): number[][] {
  const room = USSD_MAX_LENGTH - gsm7Length('CON ') - gsm7Length(NOTICE) - gsm7Length(screen.title) - FOOTER_ROOM;
  const pages: number[][] = [[]];
  let used = 0;
  screen.options.forEach((option, i) => {
    const cost = gsm7Length(`\n${i + 1}. ${option}`);
    const page = pages[pages.length - 1];
    if (page.length > 0 && used + cost > room) {
      pages.push([i + 1]);
      used = cost;
    } else {
      page.push(i + 1);
      used += cost;
    }
  });
  return pages;
}

function render(screen: Screen, page: number, nested: boolean, notice: boolean): string {
  const pages = pagesOf(screen);
  const lines = pages[page].map((n) => `${n}. ${screen.options[n - 1]}`);
  if (page < pages.length - 1) lines.push(`${MORE}. More`);
  if (page > 0 || (nested && !screen.noBack)) lines.push(`${BACK}. Back`);
  return `CON ${notice ? NOTICE : ''}${screen.title}\n${lines.join('\n')}`;
}

/** A screen, or the polite end when there is nothing to offer. */
function screen(title: string, options: string[], choose: (index: number) => Step, noBack = false): Step {
  if (options.length === 0) return ending(USSD_REPLIES.notAvailable);
  return { title: clipGsm7(title, TITLE_MAX), options: options.slice(0, MAX_OPTIONS).map((option) => clipGsm7(option, OPTION_MAX)), choose, noBack };
}

function confirm(question: string, confirmed: () => Ending): Step {
  return screen(question, ['Confirm', 'Cancel'], (index) => (index === 0 ? confirmed() : ending(USSD_REPLIES.cancelled)), true);
}

function startOf(service: UssdService): Step {
  return service.kind === 'catalogue' ? catalogueStart(service) : campaignStart(service);
}

function catalogueStart(service: CatalogueService): Step {
  const name = shown(service.categoryName, 45);
  return screen(
    `${name}: choose a ticket`,
    service.levels.map(({ level, price }) => `${categoryLevelLabel(level)} ${money(price)}`),
    (index) => {
      const { level, price } = service.levels[index];
      const label = categoryLevelLabel(level);
      const ask = `Pay ${money(price)} for ${label} (`;
      return confirm(`${ask}${clipGsm7(name, TITLE_MAX - gsm7Length(ask) - 2)})?`, () =>
        ending(`END Approve the payment of ${money(price)} on your phone. Your ${label} ticket will come by SMS.`, { kind: 'purchase', level, amount: price }),
      );
    },
  );
}

function campaignStart(service: CampaignService): Step {
  if (service.closed || service.rounds.length === 0) return ending(USSD_REPLIES.voteClosed);
  const name = shown(service.name, 45);
  if (service.rounds.length === 1) return roundStep(service, service.rounds[0]);
  return screen(`${name}: choose a round`, service.rounds.map((round) => roundShown(round.label)), (index) => roundStep(service, service.rounds[index]));
}

function roundStep(service: CampaignService, round: OfferedRound): Step {
  if (!round.open) return ending(roundClosedReply(round.label));
  if (service.cap !== null && (service.votesCast[round.key] ?? 0) >= service.cap) return ending(voteCapReply(service.cap, round.label));
  const label = roundShown(round.label);
  const choice = roundChoice(round, service.teams);
  if (choice.kind === 'teams') {
    return screen(`${label}: pick your team`, choice.teams.map((team) => shown(team)), (index) => voteConfirm(service, round, choice.teams[index], null));
  }
  if (choice.games.length === 1) return winnerStep(service, round, choice.games[0]);
  return screen(
    `${label}: choose a game`,
    choice.games.map(([a, b]) => `${shown(a, 18)} vs ${shown(b, 18)}`),
    (index) => winnerStep(service, round, choice.games[index]),
  );
}

function winnerStep(service: CampaignService, round: OfferedRound, game: Game): Step {
  const [a, b] = game;
  return screen(`Who wins ${shown(a, 25)} vs ${shown(b, 25)}?`, [shown(a), shown(b)], (index) =>
    index === 0 ? voteConfirm(service, round, a, b) : voteConfirm(service, round, b, a),
  );
}

function voteConfirm(service: CampaignService, round: OfferedRound, teamName: string, teamName2: string | null): Step {
  const team = shown(teamName, 30);
  return confirm(`Vote ${team} (${roundShown(round.label)}) for ${money(service.price)}?`, () =>
    ending(`END Approve the payment of ${money(service.price)} on your phone to record your vote for ${team}.`, {
      kind: 'vote',
      round: round.key,
      teamName,
      teamName2,
      amount: service.price,
    }),
  );
}
