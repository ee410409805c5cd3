// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the cases are HCL text, whose interpolations are written ${…}
import { describe, expect, it } from 'vitest';
import {
  type Body,
  fullView,
  readShallow,
  shallowView,
  visitValues,
} from '../../../src/parsers/terraform/body-view.js';
import { hclParseCount, parseHcl } from '../../../src/parsers/terraform/hcl-parser.js';

/** A scheduler resource as modules write it: attributes, nested blocks (one nested again) and an attribute object. */
const SCHEDULE = `resource "aws_scheduler_schedule" "sweep" {
  name                = "sweep"
  schedule_expression = var.sweep_schedule

  flexible_time_window {
    mode = "OFF"
  }

  target {
    arn      = aws_sqs_queue.sweep.arn
    role_arn = aws_iam_role.scheduler.arn

    dead_letter_config {
      arn = aws_sqs_queue.dead.arn
    }
  }

  settings = { retries = 2, queue = aws_sqs_queue.sweep.url }
}
`;

function views() {
  const full = (parseHcl(SCHEDULE).resource as Body).aws_scheduler_schedule as Record<string, Body[]>;
  const body = full.sweep?.[0] as Body;
  const shallow = readShallow(SCHEDULE.slice(SCHEDULE.indexOf('{') + 1, SCHEDULE.lastIndexOf('}')));
  if (!shallow) throw new Error('the block scanner declined the fixture');
  let parses = 0;
  const parse = () => {
    parses++;
    return body;
  };
  return { full: fullView(body), shallow: shallowView(shallow, parse), parses: () => parses };
}

function visited(view: ReturnType<typeof fullView>): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    else out.push(value);
  };
  for (const name of view.names()) visitValues(view, name, walk);
  return out;
}

describe('a block body read by attribute', () => {
  it('visits every value of the body in the order the full parse holds them, parsing nothing', () => {
    const { full, shallow, parses } = views();
    const before = hclParseCount();
    expect(visited(shallow)).toEqual(visited(full));
    expect(visited(shallow)).toContain('${aws_sqs_queue.dead.arn}');
    expect(parses()).toBe(0);
    expect(hclParseCount()).toBe(before);
  });

  it('gives nested blocks as views, and an attribute holding an object as the parse gives it', () => {
    const { full, shallow, parses } = views();
    expect(shallow.nested('target')).toBe(true);
    expect(shallow.nested('settings')).toBe(false);
    expect(full.nested('target')).toBe(false);
    expect(shallow.blocks('target').map((target) => target.get('arn'))).toEqual(['${aws_sqs_queue.sweep.arn}']);
    expect(shallow.blocks('settings').map((settings) => settings.get('retries'))).toEqual(
      full.blocks('settings').map((settings) => settings.get('retries')),
    );
    expect(shallow.blocks('missing')).toEqual([]);
    expect(parses()).toBe(0);
  });
});
