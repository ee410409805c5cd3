// One hostile corpus for the output-boundary test: directory and file names, lockfile package names, an index
// file, an imported incident document, a status page's payload and a catalog, each carrying terminal escapes, bidi
// and invisible characters, forged CI workflow commands and Markdown that would break a table or ping people.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { writeTestCatalog } from '../helpers/catalog.js';

const ESC = '\u001b';

/** What every hostile value carries; a directory name cannot hold `/`, so this has none. */
export const PAYLOAD =
  `${ESC}]0;pwned\u0007${ESC}[2J${ESC}[8m\n::error file=README.md,line=1::forged\r\n::stop-commands::tok ` +
  `##[error]legacy ##vso[task.complete result=Failed]x \u202egnp.exe\u202c \u2066iso\u2069 alm\u061c ` +
  `zw\u200bsp wj\u2060 bom\ufeff tag\u{e0001}\u{e0041}\u{e007f} \u009b31m c1 bell\u0007 del\u007f`;
/** Markdown that would start a heading, split a table cell, link, reference an issue or notify a team. */
export const MARKDOWN = '\n## Heading | cell @ops-team acme/infra#12 #34 GH-5 www.evil.example https://evil.example';

export const STACK_DIR = `svc${PAYLOAD}`;
export const BROKEN_DIR = `bad${PAYLOAD}`;
export const WRAPPER = `wrapper${PAYLOAD}`;
export const UNKNOWN_SDK = `::warning::evil${PAYLOAD}-sdk`;
export const TITLE = `Checkout down${PAYLOAD}${MARKDOWN}`;
export const COMPONENT = `API${PAYLOAD}${MARKDOWN}`;
export const REGION = `us-east-1${PAYLOAD}`;

export interface Corpus {
  root: string;
  stack: string;
  index: string;
  catalog: string;
  document: string;
}

/** Writes the corpus; `statusBase` is the loopback server the catalog's status pages point at. */
export function writeCorpus(statusBase: string): Corpus {
  const root = mkdtempSync(join(tmpdir(), 'downstack-hostile-'));
  const stack = join(root, 'stack');
  const app = join(stack, STACK_DIR);
  mkdirSync(app, { recursive: true });
  const manifest = {
    name: 'shop',
    version: '1.0.0',
    dependencies: {
      '@aws-sdk/client-s3': '3.0.0',
      '@octokit/rest': '21.0.0',
      [WRAPPER]: '1.0.0',
      [UNKNOWN_SDK]: '1.0.0',
    },
  };
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const lock = {
    name: 'shop',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': manifest,
      'node_modules/@aws-sdk/client-s3': { version: '3.0.0' },
      'node_modules/@octokit/rest': { version: '21.0.0' },
      [`node_modules/${WRAPPER}`]: { version: '1.0.0', dependencies: { stripe: '16.0.0' } },
      [`node_modules/${UNKNOWN_SDK}`]: { version: '1.0.0' },
      'node_modules/stripe': { version: '16.0.0' },
    },
  };
  writeFileSync(join(app, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  mkdirSync(join(stack, '.github', 'workflows'), { recursive: true });
  writeFileSync(
    join(stack, '.github', 'workflows', 'sync.yml'),
    stringify({
      name: `Nightly${PAYLOAD}${MARKDOWN}`,
      on: { schedule: [{ cron: '*/15 * * * *' }] },
      jobs: { sync: { 'runs-on': 'ubuntu-latest', steps: [{ run: 'curl -fsS https://api.stripe.com/v1/charges' }] } },
    }),
  );
  mkdirSync(join(stack, BROKEN_DIR));
  writeFileSync(
    join(stack, BROKEN_DIR, 'package.json'),
    '{\n  "name": "broken",\n  "dependencies": {\n    "stripe": \n}\n',
  );
  writeFileSync(
    join(stack, '.downstack.yml'),
    stringify({
      ignore: [
        { provider: 'fx-sendgrid', reason: `vendor asked us to${PAYLOAD}`, expires: '2020-01-31' },
        { provider: 'fx-aws', incident: `aws${PAYLOAD}`, reason: `known${PAYLOAD}${MARKDOWN}`, expires: '2099-12-31' },
      ],
    }),
  );

  const index = join(root, 'index');
  mkdirSync(index);
  writeFileSync(join(index, 'fx-aws.json'), `${JSON.stringify(awsIndex(), null, 2)}\n`);

  const catalog = writeTestCatalog(['fx-aws', 'fx-github', 'fx-sendgrid', 'fx-stripe'], { statusBase });
  writeFileSync(
    join(catalog, 'fx-evil.yaml'),
    stringify({
      name: `Evil${PAYLOAD}`,
      category: 'other',
      status: { url: `https://status.evil.example/${ESC}[2J`, platform: 'custom' },
      verified: false,
      notes: `unchecked${PAYLOAD}`,
      match: { npm: ['evil-client'] },
      components: [{ name: COMPONENT, id: `id${PAYLOAD}` }],
    }),
  );

  const document = join(root, `incident${PAYLOAD}.json`);
  writeFileSync(document, JSON.stringify(statuspagePayload('st-1', 'https://stspg.io/st1')));
  return { root, stack, index, catalog, document };
}

/** A Statuspage incidents.json with one open incident: hostile name, components and update bodies. */
export function statuspagePayload(id: string, shortlink: string) {
  const now = new Date();
  const started = new Date(now.getTime() - 3_600_000).toISOString();
  const update = (status: string, at: string) => ({
    id: `${id}-${status}`,
    status,
    body: `We are looking into it.\n::stop-commands::tok\n${PAYLOAD}${MARKDOWN}\nIt began at 19:39 UTC.`,
    incident_id: id,
    created_at: at,
    updated_at: at,
    display_at: at,
    affected_components: [
      { code: 'c1', name: COMPONENT, old_status: 'operational', new_status: 'major_outage' },
      { code: 'c2', name: `Payments${PAYLOAD}`, old_status: 'operational', new_status: 'partial_outage' },
    ],
  });
  return {
    page: { id: 'page1', name: `Status${PAYLOAD}`, url: 'https://status.example.com', time_zone: 'Etc/UTC' },
    incidents: [
      {
        id,
        name: TITLE,
        status: 'investigating',
        created_at: started,
        updated_at: started,
        monitoring_at: null,
        resolved_at: null,
        impact: 'major',
        shortlink,
        started_at: started,
        page_id: 'page1',
        incident_updates: [update('investigating', started)],
        components: [{ id: 'c1', name: COMPONENT, status: 'major_outage' }],
      },
    ],
  };
}

/** An index file as a published index could serve it: hostile text in every field a report shows. */
function awsIndex() {
  const incident = (id: string) => ({
    provider: 'fx-aws',
    id,
    title: TITLE,
    url: 'https://health.aws.example/event/1',
    status: 'resolved',
    impact: 'major',
    components: ['Amazon Simple Storage Service', COMPONENT],
    regions: [REGION],
    startedAt: '2024-03-01T10:00:00Z',
    resolvedAt: '2024-03-01T12:00:00Z',
    updates: [
      {
        at: '2024-03-01T10:05:00Z',
        status: 'investigating',
        body: `Elevated errors.\n::error::forged\n${PAYLOAD}`,
        components: [COMPONENT],
      },
    ],
    impactWindow: { from: '2024-03-01T10:00:00Z', to: '2024-03-01T11:30:00Z', source: `update${PAYLOAD}` },
    conflicts: [`conflict${PAYLOAD}`],
    source: `index${PAYLOAD}`,
  });
  // The first is ignored by the stack's .downstack.yml, the second is reported.
  return { schemaVersion: 1, provider: 'fx-aws', incidents: [incident(`aws${PAYLOAD}`), incident('aws-2')] };
}
