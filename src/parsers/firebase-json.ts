// firebase.json (https://firebase.google.com/docs/cli#the_firebasejson_file): what `firebase deploy` ships. Each
// top-level product key names a Firebase product the project deploys to: `hosting` (a site or an array of sites),
// `functions`, `firestore` (rules and indexes), `database` (Realtime Database rules) and `storage` (rules).
import { isRecord, parseJsonText } from '../json-text.js';
import { lineOfString } from './config/text-lines.js';
import { PLATFORM, type PlatformTarget, platformDependency } from '../platforms.js';
import { basename, type Parser, type ParseResult } from './types.js';

const PRODUCTS: Array<[key: string, target: PlatformTarget]> = [
  ['hosting', PLATFORM.firebaseHosting],
  ['functions', PLATFORM.firebaseFunctions],
  ['firestore', PLATFORM.firebaseFirestore],
  ['database', PLATFORM.firebaseDatabase],
  ['storage', PLATFORM.firebaseStorage],
];

export const firebaseJsonParser: Parser = {
  kind: 'firebase.json',
  matches: (path) => basename(path) === 'firebase.json',
  sniff: () => false,
  parse: parseFirebaseJson,
  // `emulators` or `remoteconfig` alone deploy nothing that serves the app.
  quietWhenEmpty: true,
};

export function parseFirebaseJson(source: string, path: string): ParseResult {
  const config = parseJsonText(source, path);
  if (!isRecord(config)) return { dependencies: [], errors: [{ file: path, message: 'not a JSON object; not read' }] };
  const dependencies = PRODUCTS.filter(([key]) => config[key] !== undefined && config[key] !== null).map(
    ([key, target]) => platformDependency(target, path, lineOfString(source, key), { via: key }),
  );
  return { dependencies, errors: [] };
}
