// One fresh process's first Terraform scan of a tree: loading the scanner (and whatever parser it needs) and the scan
// itself, then a bare read of the same Terraform files as the floor, the process's peak memory, and how many texts
// went to hcl2-parser (the shallow reader's misses). Prints one JSON line; node's own start-up is not in either time
// (bench/startup.js measures that against `node -e 0`). The scan's CPU time comes along, since on a loaded machine the
// wall time also holds the other processes' turns.
// The scanner is loaded from the compiled modules of dist/, a file each, not from the bundle the CLI runs
// (dist/bundle/, whose files export no stable names): the scanner's modules load one by one here, where the CLI reads
// them in two files, so the loading part of these figures is on the safe side.
import { readFileSync } from 'node:fs';
import { terraformFiles } from '../terraform-equality.js';

const dir = process.argv[2];
const start = performance.now();
const cpuStart = process.cpuUsage();
const { scanPaths } = await import('../../dist/scan.js');
const result = await scanPaths([dir]);
const { hclParseCount } = await import('../../dist/parsers/terraform/hcl-parser.js');
const fullParses = hclParseCount();
const scanMs = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
const scanCpuMs = (cpu.user + cpu.system) / 1000;
const readStart = performance.now();
let bytes = 0;
for (const path of terraformFiles(dir)) if (/\.(tf|tfvars)$/.test(path)) bytes += readFileSync(path).length;
const readMs = performance.now() - readStart;
const dependencies = result.inputs.reduce((sum, input) => sum + input.dependencies.length, 0);
process.stdout.write(
  `${JSON.stringify({ scanMs, scanCpuMs, readMs, bytes, dependencies, fullParses, peakMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
