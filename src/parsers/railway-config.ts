// railway.toml / railway.json (https://docs.railway.com/reference/config-as-code): how Railway builds and deploys a
// service. The file exists only for Railway, so it puts Railway's deployments in the stack.
import { isRecord, parseJsonText } from '../json-text.js';
import { offsetOfLine } from './config/text-lines.js';
import { readToml } from './config/toml.js';
import { PLATFORM, platformDependency } from '../platforms.js';
import { lineAt } from '../errors.js';
import { basename, type Parser, type ParseResult } from './types.js';

export const railwayConfigParser: Parser = {
  kind: 'railway',
  matches: (path) => /^railway\.(toml|json)$/.test(basename(path)),
  sniff: () => false,
  parse: parseRailwayConfig,
};

export function parseRailwayConfig(source: string, path: string): ParseResult {
  const json = path.endsWith('.json');
  const config = json ? parseJsonText(source, path) : readToml(source, path);
  if (!isRecord(config)) return { dependencies: [], errors: [{ file: path, message: 'not a JSON object; not read' }] };
  const section = ['build', 'deploy'].find((key) => isRecord(config[key]));
  // The evidence is the first `build` or `deploy` section, where the file says how Railway runs the service.
  const at = section
    ? offsetOfLine(source, json ? new RegExp(`"${section}"\\s*:`) : new RegExp(`^\\[${section}\\]`, 'm'))
    : 0;
  return { dependencies: [platformDependency(PLATFORM.railwayDeployments, path, lineAt(source, at))], errors: [] };
}
