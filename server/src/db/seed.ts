import { count } from 'drizzle-orm';
import { CATEGORY_LEVELS, categoryLevelLabel, type CategoryLevel } from '../../../src/domain/category-levels';
import { hashPassword } from '../auth/passwords';
import type { Db, DbOrTx } from './client';
import { categories, contents, serviceCodes, smsMessages, users } from './schema';
import { demoSmsHistory, seedRefunds, seedTransactions, ticketMessage } from './seed-generators';
import { DEMO_VOTES_PER_CAMPAIGN, seedCampaigns, seedSuspiciousVotes, seedVotes } from './seed-votes';
import {
  BASE_PRICES,
  DEMO_AFCON_USER,
  DEMO_AGENT_PASSWORD,
  DEMO_AGENTS,
  DEMO_CAMPAIGNS,
  DEMO_CARE_USER,
  DEMO_CATEGORIES,
  DEMO_SUPER_USER,
} from './seed-data';

export interface SeedOptions {
  timeZone: string;
  /** Ticket transactions to create (default 40,000). */
  transactions?: number;
  /** Campaign votes per campaign (default DEMO_VOTES_PER_CAMPAIGN). */
  votesPerCampaign?: number;
  /** PAYMENT_TIMEOUT_MINUTES: only calls younger than this are seeded pending (none without it). */
  paymentTimeoutMinutes?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number, hour = 9) => new Date(Date.now() - days * DAY_MS + (hour - 12) * 60 * 60 * 1000);

/**
 * Loads believable demo data into an empty database: agents, categories with every level price,
 * the 25 service codes, contents, SMS history, the two campaigns, tens of thousands of
 * transactions over the last 30 days, refunds in every state and campaign votes. Answers a one-line summary.
 */
export async function seedDemoData(db: Db, options: SeedOptions): Promise<string> {
  // All or nothing: a failed seed must not leave half a data set that blocks the next try.
  return db.transaction((tx) => seedInto(tx, options));
}

async function seedInto(db: DbOrTx, options: SeedOptions): Promise<string> {
  const [{ existing }] = await db.select({ existing: count() }).from(categories);
  if (existing > 0) return 'skipped: the database already has categories';

  const agentHash = await hashPassword(DEMO_AGENT_PASSWORD);
  const agents = await db
    .insert(users)
    .values(DEMO_AGENTS.map((userName, i) => ({ userName, role: 'agent', passwordHash: agentHash, email: `${userName}@dialdesk.example`, createdAt: daysAgo(120 - i * 7) })))
    .returning();
  const [superUser, care] = await db
    .insert(users)
    .values([
      { userName: DEMO_SUPER_USER.userName, role: 'super-user', passwordHash: await hashPassword(DEMO_SUPER_USER.password), createdAt: daysAgo(150) },
      { userName: DEMO_CARE_USER.userName, role: 'customer-care', passwordHash: await hashPassword(DEMO_CARE_USER.password), createdAt: daysAgo(90) },
      { userName: DEMO_AFCON_USER.userName, role: 'agent', isAfcon: true, passwordHash: agentHash, createdAt: daysAgo(60) },
    ])
    .returning();

  const categoryRows = await db
    .insert(categories)
    .values(
      DEMO_CATEGORIES.map((category, i) => ({
        name: category.name,
        description: category.description,
        userId: agents[i % agents.length].id,
        createdAt: daysAgo(100 - i * 5),
        ...levelPrices(category.priceFactor),
      })),
    )
    .returning();

  // The 25 codes of the transactions dropdown, dealt round the categories.
  await db.insert(serviceCodes).values(
    Array.from({ length: 25 }, (_, i) => {
      const category = categoryRows[i % categoryRows.length];
      return { name: `*217*${i + 1}#`, description: `${category.name} line ${Math.floor(i / categoryRows.length) + 1}`, categoryId: category.id, createdAt: daysAgo(90 - i) };
    }),
  );

  const contentRows = categoryRows.flatMap((category, c) => {
    const demo = DEMO_CATEGORIES[c];
    const owner = category.userId;
    // An active ticket per level; the first two levels also keep last week's, inactive.
    return CATEGORY_LEVELS.flatMap((level, l) => {
      const active = { categoryId: category.id, categoryLevel: level, createdById: owner, active: true, name: `${demo.name} ${categoryLevelLabel(level)}`, description: `Today's ${categoryLevelLabel(level)} ticket`, message: ticketMessage(demo.name, level, demo.picks, l), createdAt: daysAgo(1, 7) };
      if (l >= 2) return [active];
      return [active, { ...active, active: false, description: 'Last week', message: ticketMessage(demo.name, level, demo.picks, l + 3), createdAt: daysAgo(8, 7) }];
    });
  });
  await db.insert(contents).values(contentRows);

  await db.insert(smsMessages).values(demoSmsHistory(agents.map((agent) => agent.id)));

  await seedCampaigns(db);
  const transactionCount = options.transactions ?? 40_000;
  const { paymentTimeoutMinutes } = options;
  await seedTransactions(db, { count: transactionCount, days: 30, timeZone: options.timeZone, paymentTimeoutMinutes });
  // Customer care asked, the super-user decided: every state of the flow, for /refunds and the dashboard.
  const refundCount = await seedRefunds(db, { requesterId: care.id, deciderId: superUser.id });
  const votes = options.votesPerCampaign ?? DEMO_VOTES_PER_CAMPAIGN;
  for (const campaign of DEMO_CAMPAIGNS) await seedVotes(db, { campaign, count: votes, days: 30, paymentTimeoutMinutes });
  // A demo with votes shows what vote integrity flags, too.
  let suspicious = 0;
  if (votes > 0) for (const [index, campaign] of DEMO_CAMPAIGNS.entries()) suspicious += await seedSuspiciousVotes(db, campaign, index);

  return (
    `${agents.length} agents (${DEMO_AGENTS.join(', ')}; password "${DEMO_AGENT_PASSWORD}"), ` +
    `super-user "${DEMO_SUPER_USER.userName}" (password "${DEMO_SUPER_USER.password}"), ` +
    `customer care "${DEMO_CARE_USER.userName}" (password "${DEMO_CARE_USER.password}"), ` +
    `Afcon-only "${DEMO_AFCON_USER.userName}" (password "${DEMO_AFCON_USER.password}"), ` +
    `${categoryRows.length} categories, 25 service codes, ${contentRows.length} contents, 40 SMS, ` +
    `${transactionCount} transactions, ${refundCount} refunds and ${votes * DEMO_CAMPAIGNS.length} campaign votes over 30 days` +
    (suspicious ? ` (and ${suspicious} suspicious ones: a power-dialled number and a batch of fresh SIMs per campaign)` : '')
  );
}

function levelPrices(factor: number) {
  // Rounded to 500 shillings, as price lists are.
  return Object.fromEntries(
    CATEGORY_LEVELS.map((level) => [level, Math.min(50_000, Math.max(1_000, Math.round((BASE_PRICES[level] * factor) / 500) * 500))]),
  ) as Record<CategoryLevel, number>;
}
