import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { campaigns } from './schema';
import { DEMO_CAMPAIGNS, type DemoCampaign } from './seed-data';
import { batchId, networkSql, phoneSql, sessionPrefix } from './seed-generators';

/** The two vote campaigns (World Cup 2022, AFCON 2024); inserting them again changes nothing. */
export async function seedCampaigns(db: DbOrTx) {
  await db
    .insert(campaigns)
    .values(DEMO_CAMPAIGNS.map(({ key, name, serviceCode, rounds, teams, opensAt }) => ({ key, name, serviceCode, rounds, teams, createdAt: new Date(opensAt) })))
    .onConflictDoNothing();
}

/** Demo votes per campaign: 50,000 in all. */
export const DEMO_VOTES_PER_CAMPAIGN = 25_000;

export interface SeedVotesOptions {
  campaign: DemoCampaign;
  count: number;
  /** Spread over this many days back from now (default 30). */
  days?: number;
  /** Distinct phone numbers that may vote (default one per ten votes, at least 100). */
  voters?: number;
}

/**
 * Adds campaign votes with set-based SQL, in chunks of 100,000: ~85% processed, ~10% failed, ~5%
 * pending. Voters are drawn from a pool with a steep power law, so a few numbers vote hundreds of
 * times and most a handful; favourite teams are picked more often; rounds with games (`gameRounds`)
 * pick one of the round's fixtures, the final between the finalists. Phone numbers follow the ticket calls' pool
 * formula (seed-generators.ts), so some voters also buy tickets.
 */
export async function seedVotes(db: DbOrTx, options: SeedVotesOptions): Promise<number> {
  const { campaign } = options;
  if (options.count <= 0) return 0;
  const days = Math.max(1, options.days ?? 30);
  const voters = Math.max(1, options.voters ?? Math.max(100, Math.floor(options.count / 10)));
  const teams = JSON.stringify(campaign.teams);
  const rounds = JSON.stringify(campaign.rounds);
  const gameRounds = JSON.stringify(campaign.gameRounds);
  const finalists = JSON.stringify(campaign.finalists ?? []);
  for (let done = 0; done < options.count; done += 100_000) {
    const chunk = Math.min(100_000, options.count - done);
    await db.execute(sql`
      with drawn as (
        select g, now() - random() * make_interval(days => ${days}) as created_at,
          random() as r_status, random() as r_extra,
          (${rounds}::jsonb ->> floor(random() * jsonb_array_length(${rounds}::jsonb))::int) as round,
          floor(power(random(), 1.5) * jsonb_array_length(${teams}::jsonb))::int as team_idx,
          random() as r_fixture,
          floor(power(random(), 3) * ${voters})::int as k
        from generate_series(1, ${chunk}::int) g
      ),
      games as (
        select d.*,
          (select r.ord from jsonb_array_elements_text(${gameRounds}::jsonb) with ordinality as r(name, ord) where r.name = d.round) as game_round,
          d.round = 'final' and jsonb_array_length(${finalists}::jsonb) = 2 as is_final,
          ${phoneSql(sql`d.k`)} as phone
        from drawn d
      ),
      -- A game round has fixtures (favourite i against i + n): 16 in the first, 8 in the next, and so
      -- on; a vote picks a fixture, the favourite more often, and names its pick first.
      fixtures as (
        select g.*, greatest(1, (jsonb_array_length(${teams}::jsonb) / 2) >> (g.game_round::int - 1)) as n,
          floor(power(g.r_fixture, 1.3) * greatest(1, (jsonb_array_length(${teams}::jsonb) / 2) >> (g.game_round::int - 1)))::int as f
        from games g
      ),
      picked as (
        select x.*,
          case when x.is_final then ${finalists}::jsonb ->> floor(x.r_extra * 2)::int
               when x.game_round is not null then ${teams}::jsonb ->> (case when x.r_extra < 0.6 then x.f else x.f + x.n end)
               else ${teams}::jsonb ->> x.team_idx end as team,
          case when x.is_final then ${finalists}::jsonb ->> (1 - floor(x.r_extra * 2)::int)
               when x.game_round is not null then ${teams}::jsonb ->> (case when x.r_extra < 0.6 then x.f + x.n else x.f end) end as team2
        from fixtures x
      )
      insert into transactions (service_code, phone_number, network, amount, session_id, payment_ref, is_complete, is_deleted,
        callback_time, message_statuses, ticket_message, campaign_key, round, team_name, team_name2, created_at)
      select ${campaign.serviceCode}, p.phone, ${networkSql(sql`p.k`)}, 500,
        ${sessionPrefix()} || lpad(p.g::text, 7, '0'),
        case when p.r_status < 0.95 then 'MP' || ${batchId()} || lpad(p.g::text, 7, '0') end,
        p.r_status < 0.85,
        p.r_status >= 0.85 and p.r_status < 0.95,
        case when p.r_status < 0.95 then p.created_at + make_interval(secs => 2 + p.r_extra * 18) end,
        case when p.r_status < 0.85 then 'Delivered' when p.r_status < 0.95 then 'Payment failed' end,
        case when p.r_status < 0.85 then 'Thank you for voting ' || p.team || ' in ' || ${campaign.name} || '. Good luck!' end,
        ${campaign.key}, p.round, p.team, p.team2, p.created_at
      from picked p
    `);
  }
  return options.count;
}
