/**
 * Simulated USSD customers, for `npm run simulate`: each one dials a code, reads the
 * menus it is answered, and chooses as people do: most buy or vote, some cancel, some page, some
 * mistype once or twice, a few hang up. It only plays the customer's hops; the server's payment
 * provider settles what they confirm.
 */

/** One hop: the network's callback with the answers so far, answered `CON …` or `END …`. */
export type Hop = (hop: { sessionId: string; serviceCode: string; phoneNumber: string; networkCode: string; text: string }) => Promise<string>;

export type Outcome = 'confirmed' | 'cancelled' | 'abandoned' | 'refused' | 'bad-input' | 'ended' | 'error';

export interface Customer {
  sessionId: string;
  serviceCode: string;
  phoneNumber: string;
  networkCode: string;
}

/** A seeded random source, so a run can be repeated. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
}

/** The simulator talks to this machine only. */
export function checkLocalUrl(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('--url must be http(s)');
  if (parsed.hostname !== '127.0.0.1' && parsed.hostname !== 'localhost') throw new Error('--url must be on 127.0.0.1 or localhost: the simulator plays customers against a local server only');
  return parsed;
}

/** A Ugandan number from a pool of 5,000, so some customers come back. */
export function customerFor(random: () => number, serviceCode: string, session: string): Customer {
  const k = Math.floor(Math.pow(random(), 2) * 5000);
  const mtn = random() < 0.6;
  return {
    sessionId: session,
    serviceCode,
    phoneNumber: `2567${mtn ? '7' : '0'}${String(1_000_000 + k).padStart(7, '0')}`,
    networkCode: mtn ? '64110' : '64101',
  };
}

/** The numbered options of a menu: numbers for choices, and whether it pages or goes back. */
function optionsOf(reply: string): { choices: string[]; more: boolean; back: boolean; confirm: boolean } {
  const numbers = reply.split('\n').flatMap((line) => /^(\d+)\. /.exec(line)?.[1] ?? []);
  return {
    choices: numbers.filter((n) => n !== '98' && n !== '0'),
    more: numbers.includes('98'),
    back: numbers.includes('0'),
    confirm: /\n1\. Confirm\n2\. Cancel/.test(reply),
  };
}

/**
 * Plays one customer's session to its end and answers how it ended. `pause` waits between hops
 * (a person reading the screen); at most 12 hops.
 */
export async function playCustomer(hop: Hop, customer: Customer, random: () => number, pause: () => Promise<void> = async () => {}): Promise<{ outcome: Outcome; hops: number }> {
  const answers: string[] = [];
  const mood = random();
  // Most buy; some cancel at the price; a few mistype (once, or twice and are sent away); a few hang up.
  const cancels = mood < 0.12;
  const mistypes = mood >= 0.12 && mood < 0.22 ? 1 : mood >= 0.22 && mood < 0.26 ? 2 : 0;
  const hangsUp = mood >= 0.26 && mood < 0.3;
  let typos = 0;
  for (let hops = 1; hops <= 12; hops += 1) {
    let reply: string;
    try {
      reply = await hop({ ...customer, text: answers.join('*') });
    } catch {
      return { outcome: 'error', hops };
    }
    if (reply.startsWith('END ')) {
      if (/Approve the payment/.test(reply)) return { outcome: 'confirmed', hops };
      if (/Cancelled/.test(reply)) return { outcome: 'cancelled', hops };
      if (/not a valid choice/.test(reply)) return { outcome: 'bad-input', hops };
      if (/cast your|not available/.test(reply)) return { outcome: 'refused', hops };
      return { outcome: 'ended', hops };
    }
    if (!reply.startsWith('CON ')) return { outcome: 'error', hops };
    if (hangsUp && hops >= 2) return { outcome: 'abandoned', hops };
    await pause();
    const menu = optionsOf(reply);
    if (typos < mistypes && (mistypes === 2 || !reply.includes('Invalid choice')) && random() < 0.6) {
      typos += 1;
      answers.push(random() < 0.5 ? '77' : 'x');
    } else if (menu.confirm) answers.push(cancels ? '2' : '1');
    else if (menu.more && random() < 0.2) answers.push('98');
    else if (menu.back && !menu.more && random() < 0.1) answers.push('0');
    else if (menu.choices.length > 0) answers.push(menu.choices[Math.floor(Math.pow(random(), 1.5) * menu.choices.length)]);
    else return { outcome: 'error', hops };
  }
  return { outcome: 'abandoned', hops: 12 };
}
