// Cloud schedulers declared in Terraform, read through the same evaluator as regions so variables resolve alike:
// aws_cloudwatch_event_rule, aws_scheduler_schedule, google_cloud_scheduler_job and
// azurerm_logic_app_trigger_recurrence, each with the resources its target names.
import { createRequire } from 'node:module';
import type { JobCandidate } from '../../jobs/found.js';
import { localTimeToUtc } from '../../jobs/schedule.js';
import { uniqueTouches, urlHosts } from '../../jobs/touches.js';
import type { Dependency, InputProblem } from '../../model.js';
import { isRecord } from '../../json-text.js';
import { type BodyView, fullView, visitValues } from './body-view.js';
import { asList, lineOfAttribute, type Block } from './config-files.js';
import { blockRegions, resolve, type Scope } from './values.js';

export const SCHEDULE_TYPES = new Set([
  'aws_cloudwatch_event_rule',
  'aws_scheduler_schedule',
  'google_cloud_scheduler_job',
  'azurerm_logic_app_trigger_recurrence',
]);

const SCHEDULE_ATTRIBUTE: Record<string, string> = {
  aws_cloudwatch_event_rule: 'schedule_expression',
  aws_scheduler_schedule: 'schedule_expression',
  google_cloud_scheduler_job: 'schedule',
  azurerm_logic_app_trigger_recurrence: 'frequency',
};

export interface ScheduleFinds {
  candidates: JobCandidate[];
  notes: InputProblem[];
}

/**
 * `address` is the block's address from the root (`module.jobs.aws_scheduler_schedule.nightly`). The body is read
 * through its view: an attribute is parsed only where its value is needed as written and the shallow reader
 * cannot give it exactly (a schedule that resolves to nothing is passed on as written).
 */
export function terraformSchedules(block: Block, scope: Scope, own: Dependency[], address: string): ScheduleFinds {
  const body = block.view();
  const type = block.labels[0] as string;
  if (!body) return { candidates: [], notes: [] };
  const at = (name: string) => ({ file: block.file, line: lineOfAttribute(block, name) });
  const values = (name: string) => valuesOf(body.resolvable(name), scope);
  const disabled = (reason: string, attribute: string): ScheduleFinds => ({
    candidates: [],
    notes: [{ ...at(attribute), message: `${address} is ${reason}; not listed` }],
  });

  // `for_each` resources take their schedule from each element of a collection the evaluator does not expand
  // (terraform-aws-modules build it with for-expressions over their inputs): said once per block, not per instance.
  const attribute = SCHEDULE_ATTRIBUTE[type] as string;
  const written = body.has(attribute) ? body.get(attribute) : undefined;
  if (typeof written === 'string' && /\beach\./.test(written))
    return {
      candidates: [],
      notes: [
        {
          ...at(attribute),
          message: `${type}.${block.labels[1]}: ${attribute} comes from each for_each element (${written.replace(/^\$\{|\}$/g, '')}), which is not evaluated here; the schedules it sets are not listed`,
        },
      ],
    };

  switch (type) {
    case 'aws_cloudwatch_event_rule': {
      if (!body.has('schedule_expression')) return { candidates: [], notes: [] };
      if (String(body.get('state')).toUpperCase() === 'DISABLED' || body.get('is_enabled') === false)
        return disabled('disabled', 'state');
      const touches = [...own, ...eventTargets(block, scope)];
      return expand(body, 'schedule_expression', scope, (schedule) => ({
        name: address,
        kind: 'aws-eventbridge-rule',
        ...at('schedule_expression'),
        schedule,
        touches,
      }));
    }
    case 'aws_scheduler_schedule': {
      if (String(body.get('state')).toUpperCase() === 'DISABLED') return disabled('disabled', 'state');
      const zones = body.has('schedule_expression_timezone') ? values('schedule_expression_timezone') : ['UTC'];
      const start = values('start_date')[0];
      const touches = [...own, ...referencedResources((visit) => visitValues(body, 'target', visit), scope)];
      return expand(body, 'schedule_expression', scope, (schedule) =>
        (zones.length > 0 ? zones : [body.get('schedule_expression_timezone')]).map((timeZone) => ({
          name: address,
          kind: 'aws-scheduler-schedule',
          ...at('schedule_expression'),
          schedule,
          timeZone,
          ...(start ? { startsAt: start } : {}),
          touches,
        })),
      );
    }
    case 'google_cloud_scheduler_job': {
      if (body.get('paused') === true) return disabled('paused', 'paused');
      const zones = body.has('time_zone') ? values('time_zone') : ['Etc/UTC'];
      const hosts = body.blocks('http_target').flatMap((target) => {
        const uri = target.get('uri');
        return typeof uri === 'string' ? urlHosts(uri, block.file, at('uri').line, address) : [];
      });
      const targets = (visit: (value: unknown) => void) => {
        for (const name of ['http_target', 'pubsub_target', 'app_engine_http_target']) visitValues(body, name, visit);
      };
      const touches = uniqueTouches([...own, ...hosts, ...referencedResources(targets, scope)]);
      return expand(body, 'schedule', scope, (schedule) =>
        (zones.length > 0 ? zones : [body.get('time_zone')]).map((timeZone) => ({
          name: address,
          kind: 'google-cloud-scheduler',
          ...at('schedule'),
          schedule,
          timeZone,
          touches,
        })),
      );
    }
    case 'azurerm_logic_app_trigger_recurrence':
      return logicAppRecurrence(body, scope, own, address, at);
  }
  return { candidates: [], notes: [] };
}

/**
 * One candidate per value the expression can take (each `-var-file` is one way to apply the module); an expression
 * that cannot be resolved is passed on as written, so the job reader says it is templated.
 */
function expand(
  body: BodyView,
  attribute: string,
  scope: Scope,
  make: (schedule: unknown) => JobCandidate | JobCandidate[],
): ScheduleFinds {
  const resolved = valuesOf(body.resolvable(attribute), scope);
  const schedules = resolved.length > 0 ? resolved : [body.get(attribute)];
  return { candidates: schedules.flatMap(make), notes: [] };
}

function valuesOf(expression: unknown, scope: Scope): string[] {
  return typeof expression === 'string' ? resolve(expression, scope) : [];
}

/** The targets of an EventBridge rule: aws_cloudwatch_event_target blocks whose `rule` names this one. */
function eventTargets(rule: Block, scope: Scope): Dependency[] {
  const name = rule.labels[1];
  const reference = new RegExp(`\\baws_cloudwatch_event_rule\\.${name}\\.`);
  const targets = scope.module.resources.flatMap((block) => {
    if (block.type !== 'resource' || block.labels[0] !== 'aws_cloudwatch_event_target') return [];
    const body = block.view();
    const target = body?.get('rule');
    return body && typeof target === 'string' && reference.test(target) ? [body] : [];
  });
  return referencedResources((visit) => {
    for (const body of targets) for (const name of body.names()) visitValues(body, name, visit);
  }, scope);
}

const REFERENCE = /\b(data\.)?([a-z][a-z0-9]*_[a-z0-9_]+)\.([A-Za-z_][\w-]*)\.[A-Za-z_]/g;

/**
 * Resources the expressions inside some bodies refer to (`aws_lambda_function.worker.arn`), with their regions;
 * `values` hands every value of those bodies, in order, to the visitor.
 */
function referencedResources(values: (visit: (value: unknown) => void) => void, scope: Scope): Dependency[] {
  const found: Dependency[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(REFERENCE)) {
        const [, data, type, name] = match;
        const block = scope.module.resources.find(
          (candidate) =>
            (candidate.type === 'data') === Boolean(data) &&
            candidate.labels[0] === type &&
            candidate.labels[1] === name,
        );
        if (!block || SCHEDULE_TYPES.has(type as string)) continue;
        const regions = blockRegions(block, scope);
        for (const region of regions.length > 0 ? regions : [undefined])
          found.push({
            ecosystem: 'terraform-resource',
            name: type as string,
            ...(region ? { region } : {}),
            file: block.file,
            line: block.line,
            direct: scope.root,
            via: [`${type}.${name}`],
          });
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  values(visit);
  return uniqueTouches(found);
}

const DAYS: Record<string, number> = {
  Sunday: 0,
  Monday: 1,
  Tuesday: 2,
  Wednesday: 3,
  Thursday: 4,
  Friday: 5,
  Saturday: 6,
};

type FindIana = typeof import('windows-iana').findIana;
let findIana: FindIana | undefined;

/**
 * The IANA zone of a Windows zone name. windows-iana is loaded by the first Logic App that names one: its tables are
 * parsed at load, and a Terraform scan with no Logic App recurrence (nearly all of them) never needs them.
 */
function ianaZone(windowsZone: string): string | undefined {
  findIana ??= (createRequire(import.meta.url)('windows-iana') as { findIana: FindIana }).findIana;
  return findIana(windowsZone)[0];
}

/**
 * A Logic Apps recurrence (https://learn.microsoft.com/azure/logic-apps/concepts-schedule-automated-recurring-tasks-workflows):
 * a `schedule` of hours, minutes and weekdays becomes a five-field cron; without one it is an interval from `start_time`.
 * `time_zone` is a Windows zone name, mapped to its IANA zone.
 */
function logicAppRecurrence(
  body: BodyView,
  scope: Scope,
  own: Dependency[],
  address: string,
  at: (name: string) => { file: string; line: number },
): ScheduleFinds {
  const frequency = valuesOf(body.resolvable('frequency'), scope)[0];
  const written = body.get('interval');
  const interval = Number(valuesOf(String(written ?? ''), scope)[0] ?? written ?? 1);
  const windowsZone = body.has('time_zone') ? valuesOf(body.resolvable('time_zone'), scope)[0] : undefined;
  const timeZone =
    windowsZone === undefined
      ? body.has('time_zone')
        ? body.get('time_zone')
        : 'UTC'
      : (ianaZone(windowsZone) ?? windowsZone);
  const startTime = valuesOf(body.resolvable('start_time'), scope)[0];
  const base = {
    name: address,
    kind: 'azure-logic-app-recurrence' as const,
    ...at('frequency'),
    timeZone,
    touches: own,
  };
  if (!frequency || !Number.isInteger(interval) || interval < 1)
    return { candidates: [{ ...base, schedule: body.get('frequency') }], notes: [] };
  const schedule = firstBlock(body, 'schedule');
  if (!schedule)
    return {
      candidates: [
        {
          ...base,
          schedule: `every ${interval} ${frequency.toLowerCase()}${interval === 1 ? '' : 's'}`,
          ...(startTime ? { startsAt: startInstant(startTime, String(timeZone)) } : {}),
        },
      ],
      notes: [],
    };
  const list = (name: string) => asList(schedule.get(name)).map(String);
  const minutes = list('at_these_minutes');
  const hours = list('at_these_hours');
  const days = list('on_these_days').map((day) => DAYS[day]);
  const fits =
    interval === 1 && (frequency === 'Week' || frequency === 'Day' || (frequency === 'Hour' && hours.length === 0));
  if (!fits || days.some((day) => day === undefined))
    return {
      candidates: [],
      notes: [
        {
          ...at('frequency'),
          message: `${address}: a ${frequency} recurrence every ${interval} with a schedule is not read; not listed`,
        },
      ],
    };
  const field = (values: Array<string | number | undefined>, fallback: string) =>
    values.length > 0 ? values.join(',') : fallback;
  const cron = `${field(minutes, '0')} ${frequency === 'Hour' ? '*' : field(hours, '0')} * * ${field(days, '*')}`;
  return { candidates: [{ ...base, schedule: cron }], notes: [] };
}

/**
 * The first body under `name` as the parse's `asList(body[name])[0]` gives it: a nested block's view, or whatever
 * else a value there is (a value that is not an object has no fields).
 */
function firstBlock(body: BodyView, name: string): BodyView | undefined {
  if (body.nested(name)) return body.blocks(name)[0];
  const first = asList(body.get(name))[0];
  return first ? fullView(isRecord(first) ? first : {}) : undefined;
}

/** `start_time` with an offset is that instant; without one it is local time in `time_zone`, as Logic Apps reads it. */
function startInstant(value: string, timeZone: string): string {
  if (/[zZ]$|[+-]\d\d:\d\d$/.test(value)) {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : new Date(time).toISOString();
  }
  return localTimeToUtc(value, timeZone) ?? value;
}
