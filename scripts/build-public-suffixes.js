// Build step: the Public Suffix List table that a check reads instead of loading psl (src/public-suffixes.ts).
import { writePublicSuffixTable } from '../dist/public-suffixes.js';

await writePublicSuffixTable();
