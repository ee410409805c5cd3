// `npm run build:history` on small archives laid out like the real ones (an incident-record archive, a polled
// incidents.json with several versions), as bare git mirrors: deterministic output, facts only, snapshot events left
// out, and the lead measured from stated starts against first posts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/catalog.js';

const root = tempDir('downstack-mirrors-');
const mirrors = join(root, 'mirrors');

function git(cwd: string, ...args: string[]) {
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  });
}

/** A bare mirror at mirrors/<owner>+<name>/repo whose history is `commits` (files written, then committed, in turn). */
function mirror(repo: string, commits: Array<{ date: string; files: Record<string, string> }>): string {
  const work = tempDir('downstack-work-');
  git(work, 'init', '-q', '-b', 'main');
  for (const commit of commits) {
    for (const [path, text] of Object.entries(commit.files)) {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    git(work, 'add', '-A');
    execFileSync('git', ['commit', '-q', '-m', 'poll'], {
      cwd: work,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@e',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@e',
        GIT_AUTHOR_DATE: commit.date,
        GIT_COMMITTER_DATE: commit.date,
      },
    });
  }
  const target = join(mirrors, `${repo.replace('/', '+')}`, 'repo');
  mkdirSync(join(target, '..'), { recursive: true });
  git(root, 'clone', '-q', '--mirror', work, target);
  return execFileSync('git', [`--git-dir=${target}`, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
}

const record = (code: string, startedAt: string, resolvedAt: string, resolution: string, component = 'Actions') =>
  JSON.stringify({
    page: { id: 'kctbh9vrtdwd', name: 'GitHub', url: 'https://www.githubstatus.com', time_zone: 'Etc/UTC' },
    incident: {
      id: code,
      name: `Incident with ${component}`,
      status: 'resolved',
      created_at: startedAt,
      started_at: startedAt,
      resolved_at: resolvedAt,
      impact: 'major',
      incident_updates: [
        { id: `${code}2`, status: 'resolved', body: resolution, created_at: resolvedAt, affected_components: null },
        {
          id: `${code}1`,
          status: 'investigating',
          body: `We are investigating reports of degraded performance for ${component}.`,
          created_at: startedAt,
          affected_components: [{ code: 'x', name: component, old_status: 'operational', new_status: 'major_outage' }],
        },
      ],
      components: [],
    },
  });

const gcpIncident = (id: string, begin: string, created: string, end: string, modified: string) => ({
  id,
  number: String(BigInt(9_000_000_000_000_000_000n) + BigInt(id.length)),
  begin,
  created,
  end,
  modified,
  external_desc: 'Customers may see elevated errors in Cloud Storage.',
  updates: [
    {
      created: end,
      modified: end,
      when: end,
      text: 'The issue has been resolved.',
      status: 'AVAILABLE',
      affected_locations: [],
    },
    {
      created,
      modified: created,
      when: created,
      text: 'We are investigating.',
      status: 'SERVICE_DISRUPTION',
      affected_locations: [],
    },
  ],
  most_recent_update: {},
  status_impact: 'SERVICE_DISRUPTION',
  severity: 'medium',
  service_key: 'UwaYoXQ5bHYHG6EdiPB8',
  service_name: 'Google Cloud Storage',
  affected_products: [{ title: 'Google Cloud Storage', id: 'UwaYoXQ5bHYHG6EdiPB8' }],
  uri: `incidents/${id}`,
  currently_affected_locations: [],
  previously_affected_locations: [{ title: 'Iowa (us-central1)', id: 'us-central1' }],
});

let sourcesFile: string;
const snapshot = tempDir('downstack-snapshot-');

beforeAll(() => {
  const records = mirror('example/incident-records', [
    {
      date: '2023-06-01T00:00:00Z',
      files: {
        'incidents/aaaaaaaaaaa1.json': record(
          'aaaaaaaaaaa1',
          '2023-05-02T10:30:00Z',
          '2023-05-02T11:40:00Z',
          'On May 2 between 10:05 and 11:30 UTC, Actions jobs were delayed.',
        ),
        'incidents/aaaaaaaaaaa2.json': record(
          'aaaaaaaaaaa2',
          '2023-05-09T08:00:00Z',
          '2023-05-09T08:45:00Z',
          'This incident has been resolved.',
        ),
        'incidents/aaaaaaaaaaa3.json': record(
          'aaaaaaaaaaa3',
          '2023-05-20T14:00:00Z',
          '2023-05-20T15:00:00Z',
          'This incident has been resolved.',
          'Pages',
        ),
      },
    },
  ]);
  // Two polls of a rolling incidents.json: the incident changes between them, and the newer poll drops it no more.
  const gcp = mirror('example/gcp-polls', [
    {
      date: '2023-05-01T00:00:00Z',
      files: {
        'gcp_outages.json': JSON.stringify([
          gcpIncident(
            'g1',
            '2023-04-30T10:00:00+00:00',
            '2023-04-30T10:50:00+00:00',
            '2023-04-30T12:00:00+00:00',
            '2023-04-30T12:00:00+00:00',
          ),
        ]),
      },
    },
    {
      date: '2023-05-20T00:00:00Z',
      files: {
        'gcp_outages.json': JSON.stringify([
          gcpIncident(
            'g2',
            '2023-05-18T01:00:00+00:00',
            '2023-05-18T01:20:00+00:00',
            '2023-05-18T02:00:00+00:00',
            '2023-05-18T02:00:00+00:00',
          ),
          gcpIncident(
            'g1',
            '2023-04-30T10:00:00+00:00',
            '2023-04-30T10:50:00+00:00',
            '2023-04-30T12:30:00+00:00',
            '2023-05-02T09:00:00+00:00',
          ),
        ]),
      },
    },
  ]);
  sourcesFile = join(root, 'sources.json');
  writeFileSync(
    sourcesFile,
    JSON.stringify([
      {
        id: 'github-records',
        repo: 'example/incident-records',
        ref: 'main',
        commit: records,
        license: 'Unlicense',
        provider: 'github',
        reads: 'records',
      },
      {
        id: 'gcp',
        repo: 'example/gcp-polls',
        ref: 'main',
        commit: gcp,
        license: 'facts',
        provider: 'google-cloud',
        reads: 'polls',
      },
    ]),
  );
  // A hand-checked snapshot incident that tells the Pages outage of 2023-05-20.
  writeFileSync(
    join(snapshot, 'github.json'),
    JSON.stringify({
      schemaVersion: 1,
      provider: 'github',
      incidents: [
        {
          provider: 'github',
          id: 'github-2023-05-20-pages',
          title: 'Pages builds failed',
          url: 'https://github.blog/',
          status: 'resolved',
          impact: 'major',
          components: ['Pages'],
          regions: [],
          startedAt: '2023-05-20T13:55:00Z',
          resolvedAt: '2023-05-20T15:02:00Z',
          updates: [],
          timePrecision: 'exact',
          source: 'embedded',
        },
      ],
    }),
  );
});

function build(out: string) {
  execFileSync(
    process.execPath,
    ['scripts/build-history.js', '--mirrors', mirrors, '--sources', sourcesFile, '--out', out],
    {
      env: { ...process.env, DOWNSTACK_SNAPSHOT_DIR: snapshot },
      stdio: 'pipe',
    },
  );
}

const read = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8');
/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();

describe('build-history', () => {
  it('gives byte-identical output from the same mirrors', () => {
    const first = tempDir('downstack-history-');
    const second = tempDir('downstack-history-');
    // What an earlier build left: the old one-file layout and a year no source gives any more go; other files stay.
    writeFileSync(join(first, 'github.json'), '{}');
    mkdirSync(join(first, 'github'));
    writeFileSync(join(first, 'github', '2019.json'), '{}');
    mkdirSync(join(first, 'notes'));
    writeFileSync(join(first, 'notes', 'README'), 'kept');
    build(first);
    build(second);
    expect(filesUnder(first)).toEqual([
      'github/2023.json',
      'google-cloud/2023.json',
      'leads.json',
      'manifest.json',
      'notes/README',
    ]);
    for (const name of filesUnder(second)) expect(read(second, name)).toBe(read(first, name));
  });

  it('writes facts with titles of its own, keeps each incident as its newest poll had it, and leaves out what the snapshot tells', () => {
    const out = tempDir('downstack-history-');
    build(out);
    const github = JSON.parse(read(out, 'github/2023.json'));
    expect(github).toMatchObject({ schemaVersion: 2, provider: 'github', year: 2023 });
    expect(github.incidents.map((record: { id: string }) => record.id)).toEqual(['aaaaaaaaaaa2', 'aaaaaaaaaaa1']);
    expect(github.incidents[1]).toEqual({
      id: 'aaaaaaaaaaa1',
      title: 'Actions — major, 1h 35m',
      summary:
        "Actions, from 2023-05-02 10:05 to 2023-05-02 11:40 UTC (1h 35m); impact major. The times are the impact window stated in GitHub's status updates.",
      url: 'https://www.githubstatus.com/incidents/aaaaaaaaaaa1',
      status: 'resolved',
      impact: 'major',
      startedAt: '2023-05-02T10:30:00Z',
      resolvedAt: '2023-05-02T11:40:00Z',
      timePrecision: 'from-text',
      components: ['Actions'],
      regions: [],
      impactWindow: {
        from: '2023-05-02T10:05:00Z',
        to: '2023-05-02T11:30:00Z',
        source: "stated in GitHub's status updates",
      },
    });
    expect(github.incidents[0]).toMatchObject({ timePrecision: 'upper-bound', title: 'Actions — major, 45m' });
    expect(read(out, 'github/2023.json')).not.toMatch(/investigating|jobs were delayed/i);

    const gcp = JSON.parse(read(out, 'google-cloud/2023.json'));
    expect(gcp.incidents.find((record: { id: string }) => record.id === 'g1')).toMatchObject({
      startedAt: '2023-04-30T10:00:00Z',
      resolvedAt: '2023-04-30T12:30:00Z',
      timePrecision: 'exact',
      regions: ['us-central1'],
    });
    const manifest = JSON.parse(read(out, 'manifest.json'));
    expect(manifest.providers.github.toldBySnapshot).toEqual(['aaaaaaaaaaa3 → github-2023-05-20-pages']);
    expect(manifest.providers['google-cloud'].byYear).toEqual({ 2023: 2 });
  });

  it('measures the lead as the time from a stated impact start to the first post', () => {
    const out = tempDir('downstack-history-');
    build(out);
    const leads = JSON.parse(read(out, 'leads.json'));
    // GitHub: stated 10:05, first post 10:30 (25 min). Google Cloud: begin 10:00 → 10:50 and 01:00 → 01:20.
    expect(leads.platforms.statuspage).toMatchObject({ minutes: 25, sample: 1 });
    expect(leads.platforms.gcp).toMatchObject({ sample: 2, p25: 20, p75: 50 });
  });

  it('refuses a mirror that lacks the pinned commit', () => {
    const pinned = JSON.parse(readFileSync(sourcesFile, 'utf8'));
    const wrong = join(root, 'wrong.json');
    writeFileSync(wrong, JSON.stringify([{ ...pinned[0], commit: '0123456789abcdef0123456789abcdef01234567' }]));
    expect(() =>
      execFileSync(
        process.execPath,
        ['scripts/build-history.js', '--mirrors', mirrors, '--sources', wrong, '--out', tempDir()],
        {
          stdio: 'pipe',
        },
      ),
    ).toThrow(/lacks the pinned commit 0123456789abcdef/);
  });
});
