// Rendering cost of each report format on a large synthetic stack, as ratios to the JSON contract's cost; each is
// timed through the output boundary (forOutput), which is what the CLI writes.
// Run after `tsc` (reads dist/). bench/run.js should call run() when it exists.
import { performance } from 'node:perf_hooks';
import { loadCatalog } from '../dist/catalog/loader.js';
import { runCheck } from '../dist/check.js';
import { renderAtom } from '../dist/report/atom.js';
import { renderCheck } from '../dist/report/render.js';
import { forOutput } from '../dist/sanitize.js';

const FIXTURES = new URL('../test/fixtures/report/', import.meta.url).pathname;
const NOW = new Date('2021-08-11T06:00:00Z');

/** The fixture report with its findings repeated until there are `count`, each its own incident. */
async function bigReport(count) {
  const report = await runCheck({
    paths: [`${FIXTURES}stack`],
    indexDir: `${FIXTURES}index`,
    since: new Date('2021-08-10T00:00:00Z'),
    until: new Date('2021-08-12T00:00:00Z'),
    now: NOW,
    catalog: loadCatalog(
      ['fx-aws', 'fx-github', 'fx-sendgrid', 'fx-stripe'].map((id) => `${FIXTURES}../providers/${id}.yaml`),
    ),
  });
  const findings = [];
  for (let i = 0; findings.length < count; i++) {
    for (const finding of report.findings) {
      const shift = i * 60_000;
      const from = new Date(Date.parse(finding.replay.from) - shift).toISOString();
      findings.push({
        ...finding,
        incident: { ...finding.incident, id: `${finding.incident.id}-${i}` },
        replay: { from, to: finding.replay.to },
      });
    }
  }
  return { ...report, findings: findings.slice(0, count) };
}

async function time(fn, rounds) {
  await fn();
  const start = performance.now();
  for (let i = 0; i < rounds; i++) await fn();
  return (performance.now() - start) / rounds;
}

export async function run() {
  const report = await bigReport(2000);
  const rounds = 5;
  const baseline = await time(async () => forOutput(await renderCheck(report, 'json', { now: NOW })), rounds);
  console.log(`reports json (baseline, 2000 findings): ${baseline.toFixed(1)} ms, ratio vs baseline: 1.0×`);
  for (const format of ['table', 'markdown', 'sarif', 'github', 'html']) {
    const ms = await time(async () => forOutput(await renderCheck(report, format, { now: NOW })), rounds);
    console.log(
      `reports ${format} (2000 findings): ${ms.toFixed(1)} ms, ratio vs baseline: ${(ms / baseline).toFixed(1)}×`,
    );
  }
  const entries = report.findings.map((finding) => ({
    incident: finding.incident,
    providerName: finding.provider,
    components: finding.components,
    replay: finding.replay,
  }));
  const atom = await time(
    () => forOutput(renderAtom({ id: 'urn:downstack:feed:bench', title: 'bench', now: NOW, entries })),
    rounds,
  );
  console.log(
    `reports atom (2000 entries): ${atom.toFixed(1)} ms, ratio vs baseline: ${(atom / baseline).toFixed(1)}×`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
