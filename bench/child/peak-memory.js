// Runs the CLI with the given arguments in this process and, as it exits, reports its peak resident memory on stderr
// (`peak-rss-kb N`, from process.resourceUsage().maxRSS), so the bench needs no external `time` tool.
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/downstack.js', import.meta.url));
process.argv = [process.argv[0], bin, ...process.argv.slice(2)];
process.on('exit', () => process.stderr.write(`peak-rss-kb ${process.resourceUsage().maxRSS}\n`));
await import(bin);
