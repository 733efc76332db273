import type { FastifyBaseLogger } from 'fastify';
import { todayInServiceZone } from '../../../src/domain/format';
import { INCIDENT_KIND_LABELS, type Incident, type IncidentFigures, type IncidentKind } from '../../../src/domain/incidents';
import { toLiveIncident } from '../../../src/domain/live';
import type { Db } from '../db/client';
import type { MailProvider } from '../providers/mail';
import { incidentsRepository } from '../repositories/incidents-repository';
import type { ChangeFeed } from './change-feed';

/** The thresholds of the incident rules (README 'Incidents'; INCIDENT_* variables). */
export interface IncidentSettings {
  /** The recent window the failure and SMS rules look at, in minutes. */
  windowMinutes: number;
  /** failure-rate: settled calls a code needs in the window before its share counts. */
  failureMinCalls: number;
  /** failure-rate: the window's failed share must reach max(factor × the 7-day share, the 7-day share + margin). */
  failureFactor: number;
  failureMargin: number;
  /** provider-silence: payments pending longer than this with no word from the provider… */
  silenceMinutes: number;
  /** …at least this many of them. */
  silenceMinPayments: number;
  /** sms-failure: the window's failed share of answered ticket SMS that opens it… */
  smsFailureShare: number;
  /** …once at least this many were answered. */
  smsMinMessages: number;
  /** Mail the admins and super-users when an incident opens. */
  mail: boolean;
}

export const DEFAULT_INCIDENT_SETTINGS: IncidentSettings = {
  windowMinutes: 10,
  failureMinCalls: 10,
  failureFactor: 3,
  failureMargin: 0.2,
  silenceMinutes: 5,
  silenceMinPayments: 5,
  smsFailureShare: 0.2,
  smsMinMessages: 10,
  mail: true,
};

/** What the detector saw for one kind and code: whether that opens an incident, or closes an open one. */
interface Finding {
  kind: IncidentKind;
  serviceCode: string | null;
  opens: boolean;
  closes: boolean;
  figures: IncidentFigures;
}

const MINUTE = 60_000;
const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
const round = (value: number) => Math.round(value * 10_000) / 10_000;
const keyOf = (kind: string, serviceCode: string | null) => `${kind}\u0000${serviceCode ?? ''}`;

/** The day `days` before a calendar day. */
function daysBefore(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
}

export interface IncidentDetectorDeps {
  db: Db;
  feed: ChangeFeed;
  mail: MailProvider;
  settings: IncidentSettings;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/**
 * The incident rules (DESIGN §7), run on every instance: each pass reads the recent
 * figures and opens or closes incidents. Opening inserts under a unique index of open incidents and
 * closing is a conditional update, so whichever instance notices first does it, once; only that
 * instance announces it on the live feed and mails the managers. `detect(now)` takes the clock, so
 * the rules are tested on fixed instants.
 */
export function incidentDetector({ db, feed, mail, settings, log }: IncidentDetectorDeps) {
  const repo = incidentsRepository(db);

  async function findings(now: Date): Promise<Finding[]> {
    const windowStart = new Date(now.getTime() - settings.windowMinutes * MINUTE);
    const today = todayInServiceZone(now);
    const [window, week, silence] = await Promise.all([
      repo.windowFigures(windowStart, now),
      repo.dailyFigures(daysBefore(today, 7), today),
      repo.silentPayments(new Date(now.getTime() - settings.silenceMinutes * MINUTE)),
    ]);
    const baseline = new Map(week.map((row) => [row.serviceCode, share(row.failed, row.settled)]));
    const found: Finding[] = window.map((code) => {
      const baselineShare = baseline.get(code.serviceCode) ?? 0;
      // Compared as shown (4 decimals): 3 × 10% must equal 30%, which floating point does not give.
      const threshold = round(Math.max(settings.failureFactor * baselineShare, baselineShare + settings.failureMargin));
      const failedShare = round(share(code.failed, code.settled));
      return {
        kind: 'failure-rate',
        serviceCode: code.serviceCode,
        opens: code.settled >= settings.failureMinCalls && failedShare >= threshold,
        closes: failedShare < threshold,
        figures: { windowMinutes: settings.windowMinutes, settled: code.settled, failed: code.failed, failedShare, baselineShare: round(baselineShare), threshold },
      };
    });
    found.push({
      kind: 'provider-silence',
      serviceCode: null,
      opens: silence.silent >= settings.silenceMinPayments,
      closes: silence.silent < settings.silenceMinPayments,
      figures: { silentPayments: silence.silent, oldestRequestedAt: silence.oldest, silenceMinutes: settings.silenceMinutes },
    });
    const sms = window.reduce((sum, code) => ({ answered: sum.answered + code.sms, failed: sum.failed + code.smsFailed }), { answered: 0, failed: 0 });
    const smsShare = round(share(sms.failed, sms.answered));
    found.push({
      kind: 'sms-failure',
      serviceCode: null,
      opens: sms.answered >= settings.smsMinMessages && smsShare >= settings.smsFailureShare,
      closes: smsShare < settings.smsFailureShare,
      figures: { windowMinutes: settings.windowMinutes, answered: sms.answered, failed: sms.failed, failedShare: smsShare, threshold: settings.smsFailureShare },
    });
    return found;
  }

  async function mailManagers(incident: Incident) {
    if (!settings.mail) return;
    const where = incident.serviceCode ? ` on ${incident.serviceCode}` : '';
    const subject = `Dialdesk incident: ${INCIDENT_KIND_LABELS[incident.kind]}${where}`;
    const facts = Object.entries(incident.figures).map(([name, value]) => `${name}: ${value ?? '-'}`);
    const body = [`${INCIDENT_KIND_LABELS[incident.kind]}${where} since ${incident.openedAt}.`, '', ...facts, '', 'See Incidents in Dialdesk.'].join('\n');
    for (const to of await repo.managerEmails()) {
      await mail.send({ to, subject, body }).catch((error: unknown) => log.warn({ err: error }, 'incident mail could not be sent'));
    }
  }

  /** One pass at `now`: answers the incidents this pass opened and closed (another instance's are not among them). */
  async function detect(now = new Date()): Promise<{ opened: Incident[]; closed: Incident[] }> {
    const [found, open] = await Promise.all([findings(now), repo.openOnes()]);
    const byKey = new Map(found.map((finding) => [keyOf(finding.kind, finding.serviceCode), finding]));
    const opened: Incident[] = [];
    const closed: Incident[] = [];
    for (const incident of open) {
      const finding = byKey.get(keyOf(incident.kind, incident.serviceCode));
      byKey.delete(keyOf(incident.kind, incident.serviceCode));
      // A code with no settled call in the window has nothing failing any more.
      if (finding && !finding.closes) continue;
      const done = await repo.close(incident._id, now);
      if (done) closed.push(done);
    }
    for (const finding of byKey.values()) {
      if (!finding.opens) continue;
      const done = await repo.open({ kind: finding.kind, serviceCode: finding.serviceCode, openedAt: now, figures: finding.figures });
      if (done) opened.push(done);
    }
    for (const incident of [...opened, ...closed]) feed.incidentChanged(toLiveIncident(incident));
    if (opened.length + closed.length > 0) log.info({ opened: opened.map((i) => `${i.kind} ${i.serviceCode ?? ''}`), closed: closed.length }, 'incidents changed');
    for (const incident of opened) await mailManagers(incident);
    return { opened, closed };
  }

  return {
    detect,
    /** Runs a pass every `everyMs` (one at a time); the timer never keeps the process alive. */
    start(everyMs: number) {
      let running: Promise<unknown> | undefined;
      const pass = () => {
        running ??= detect()
          .catch((error: unknown) => log.error({ err: error }, 'incident detection failed'))
          .finally(() => (running = undefined));
      };
      const timer = setInterval(pass, everyMs);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await running;
        },
      };
    },
  };
}

export type IncidentDetector = ReturnType<typeof incidentDetector>;
