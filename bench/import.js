// Import speed: reading documents into drafted incidents, against plain JSON.parse / a regex scan of the same text
// measured in the same run (ratios, not absolute times). Run after `tsc` (it imports from dist/).
import { readDocument } from '../dist/incidents/import/index.js';
import { htmlToText } from '../dist/readers/text/html.js';

function statuspageExport(count) {
  const incidents = [];
  for (let i = 0; i < count; i++) {
    const start = Date.UTC(2024, 0, 1) + i * 7_200_000;
    const iso = (ms) => new Date(ms).toISOString();
    incidents.push({
      id: `bench${String(i).padStart(7, '0')}`,
      name: `Elevated errors ${i}`,
      status: 'resolved',
      impact: 'minor',
      created_at: iso(start),
      started_at: iso(start),
      resolved_at: iso(start + 3_600_000),
      shortlink: `https://stspg.io/b${i}`,
      incident_updates: [
        {
          status: 'resolved',
          body: 'Resolved.',
          created_at: iso(start + 3_600_000),
          display_at: iso(start + 3_600_000),
          affected_components: [{ code: 'c', name: 'API' }],
        },
        {
          status: 'investigating',
          body: `Errors began at ${new Date(start - 600_000).toISOString().slice(11, 16)} UTC and we are investigating.`,
          created_at: iso(start),
          display_at: iso(start),
          affected_components: null,
        },
      ],
      components: [],
    });
  }
  return JSON.stringify({ page: { id: 'benchpage', name: 'Bench', url: 'https://status.bench.example' }, incidents });
}

function postmortemPage(paragraphs) {
  const lines = [
    '# Bench outage',
    '',
    '- investigating Mar 14, 2021, 06:45 AM UTC',
    'We are investigating.',
    '- resolved Mar 14, 2021, 09:25 AM UTC',
    'Resolved.',
    '- postmortem Mar 15, 2021, 10:00 AM UTC',
  ];
  for (let i = 0; i < paragraphs; i++)
    lines.push(
      `At ${1 + (i % 9)}:${String(i % 60).padStart(2, '0')} AM ET the queue grew again, and from 2:10 to 2:40 AM ET requests failed. Service was restored at 4:05 AM ET after a fix was deployed.`,
    );
  return lines.join('\n');
}

function time(fn, rounds) {
  fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e6 / rounds;
}

export async function run() {
  const json = statuspageExport(2000);
  const jsonMs = time(() => readDocument({ file: 'bench.json', text: json }), 3);
  const parseMs = time(() => JSON.parse(json), 3);
  console.log(
    `import statuspage incidents.json (2000 incidents, ${(json.length / 1e6).toFixed(1)} MB): ${jsonMs.toFixed(1)} ms, ratio vs baseline (JSON.parse): ${(jsonMs / parseMs).toFixed(1)}×`,
  );

  // Hostile input: 1 MB of "<" and a 1 MB run of spaces after "affected:", against one pass of indexOf over the same text.
  const angles = '<'.repeat(1_000_000);
  const anglesMs = time(() => htmlToText(angles), 3);
  const scanAngles = time(() => angles.lastIndexOf('>'), 3);
  console.log(
    `HTML to text, 1 MB of "<": ${anglesMs.toFixed(1)} ms, ratio vs baseline (one indexOf pass): ${(anglesMs / Math.max(scanAngles, 0.01)).toFixed(0)}×`,
  );
  const affected = `Northwind outage 2022-01-01 10:00 UTC\nComponents affected:${' '.repeat(1_000_000)}x`;
  const affectedMs = time(() => {
    try {
      readDocument({ file: 'hostile.md', text: affected });
    } catch {
      // refused or read: only the time counts
    }
  }, 3);
  console.log(
    `import, 1 MB of spaces after "affected:": ${affectedMs.toFixed(1)} ms, ratio vs baseline (one indexOf pass): ${(
      affectedMs /
        Math.max(
          time(() => affected.indexOf('x'), 3),
          0.01,
        )
    ).toFixed(0)}×`,
  );

  const text = postmortemPage(2000);
  const textMs = time(() => readDocument({ file: 'bench.md', text }), 3);
  const scanMs = time(() => [...text.matchAll(/\d{1,2}:\d\d/g)].length, 3);
  console.log(
    `import postmortem page (2000 paragraphs, ${(text.length / 1e3).toFixed(0)} kB): ${textMs.toFixed(1)} ms, ratio vs baseline (bare time regex scan): ${(textMs / scanMs).toFixed(1)}×`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
