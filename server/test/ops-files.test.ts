import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { INCIDENT_KINDS } from '../../src/domain/incidents';
import { buildTestWorld, USSD_CALLBACK_URL, type TestWorld } from './helpers';

jest.setTimeout(30_000);

const ops = (file: string) => fs.readFileSync(path.join(__dirname, '..', '..', 'ops', file), 'utf8');

/** The metric names a PromQL expression reads: identifiers before `{`, `[` or a space that are not PromQL's own words. */
const PROMQL_WORDS = new Set(['sum', 'max', 'min', 'avg', 'by', 'rate', 'increase', 'histogram_quantile', 'and', 'or', 'unless', 'le', 'without', 'count']);
const metricsIn = (expr: string) =>
  [...expr.matchAll(/\b([a-z_][a-z0-9_]*)\s*(?=\{|\[|\)|\s|$)/g)].map(([, name]) => name).filter((name) => !PROMQL_WORDS.has(name) && !/^(status|state|kind|service_code|route|instance)$/.test(name));

/** Brackets of a PromQL expression close in order (no promtool here: the least a typo breaks). */
const balanced = (expr: string) => {
  const open: string[] = [];
  for (const char of expr.replace(/"[^"]*"/g, '""')) {
    if ('([{'.includes(char)) open.push(char);
    else if (')]}'.includes(char) && open.pop() !== '([{'[')]}'.indexOf(char)]) return false;
  }
  return open.length === 0;
};

/** The base names /metrics exposes (a histogram's `_bucket`, `_count` and `_sum` series count as its own). */
const exposedNames = (text: string) => {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_count', '_sum']) names.add(name + suffix);
  }
  return names;
};

describe('the monitoring files in ops/', () => {
  let world: TestWorld;
  let exposed: Set<string>;
  beforeAll(async () => {
    world = await buildTestWorld();
    await world.app.inject({ method: 'POST', url: USSD_CALLBACK_URL, payload: 'sessionId=o1&serviceCode=*000%23&phoneNumber=256770000001&text=', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    exposed = exposedNames((await world.app.inject({ method: 'GET', url: '/metrics' })).body);
    exposed.add('up'); // Prometheus's own, per target
  });
  afterAll(() => world.close());

  it('the scrape configuration is YAML that scrapes /metrics and loads the alert rules', () => {
    const config = parse(ops('prometheus.yml'));
    expect(config.rule_files).toEqual(['alerts.yml']);
    expect(config.scrape_configs[0]).toMatchObject({ job_name: 'dialdesk', metrics_path: '/metrics', authorization: { type: 'Bearer' } });
  });

  it("mirrors each kind of the console's incidents: any open one, and each rule the counters can compute again", () => {
    const rules = parse(ops('alerts.yml')).groups.flatMap((group: { rules: unknown[] }) => group.rules) as { alert: string; expr: string; annotations: { description: string } }[];
    expect(rules.find((rule) => rule.alert === 'DialdeskIncidentOpen')?.expr).toMatch(/by \(kind\) \(dialdesk_incidents_open\)/);
    const mirrored = rules.flatMap((rule) => [...(rule.annotations.description ?? '').matchAll(/Mirrors (?:the )?([a-z-]+)/g)].map(([, kind]) => kind));
    expect(mirrored.filter((kind) => !INCIDENT_KINDS.includes(kind as never))).toEqual([]);
    expect(new Set(mirrored)).toEqual(new Set(['failure-rate', 'provider-silence']));
  });

  it('every alert rule is complete and reads only metrics the API exposes', () => {
    const rules = parse(ops('alerts.yml')).groups.flatMap((group: { rules: unknown[] }) => group.rules) as { alert: string; expr: string; for: string; labels: { severity: string }; annotations: { summary: string } }[];
    expect(rules.length).toBeGreaterThanOrEqual(6);
    for (const rule of rules) {
      expect(rule).toMatchObject({ alert: expect.stringMatching(/^Dialdesk[A-Za-z]+$/), for: expect.stringMatching(/^\d+m$/), labels: { severity: expect.stringMatching(/^(page|ticket)$/) }, annotations: { summary: expect.any(String) } });
      const unknown = metricsIn(rule.expr).filter((name) => !exposed.has(name));
      expect({ alert: rule.alert, unknown, balanced: balanced(rule.expr) }).toEqual({ alert: rule.alert, unknown: [], balanced: true });
    }
  });

  it('the Grafana dashboard is JSON whose every panel reads only metrics the API exposes', () => {
    const dashboard = JSON.parse(ops('grafana-dashboard.json')) as { uid: string; panels: { title: string; targets: { expr: string }[] }[] };
    expect(dashboard.uid).toBe('dialdesk');
    for (const panel of dashboard.panels) {
      const unknown = panel.targets.flatMap((target) => metricsIn(target.expr)).filter((name) => !exposed.has(name));
      expect({ panel: panel.title, unknown, balanced: panel.targets.every((target) => balanced(target.expr)) }).toEqual({ panel: panel.title, unknown: [], balanced: true });
    }
  });
});
