// Remote and file text is untrusted: nothing reaches a terminal with control sequences or bidi overrides in it.

// C0/C1 controls except tab and newline, ESC sequences, and the Unicode bidi embedding/override/isolate marks.
const ANSI_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Strips terminal escapes and bidi controls; caps the length so one field cannot flood a report. */
export function cleanText(value: string, maxLength = 4000): string {
  const cleaned = value.replace(ANSI_SEQUENCE, '').replace(CONTROL, '');
  return cleaned.length > maxLength ? `${cleaned.slice(0, maxLength - 1)}…` : cleaned;
}

/** One-line form for tables and `file:line:` messages. */
export function cleanLine(value: string, maxLength = 300): string {
  return cleanText(value.replace(/\s+/g, ' ').trim(), maxLength);
}
