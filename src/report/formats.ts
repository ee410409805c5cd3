// The `check --format` choices, declared once: the CLI option, the config schema and the dispatch all read this.
export const CHECK_FORMATS = ['table', 'json', 'markdown', 'sarif', 'github', 'gitlab', 'html'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];
