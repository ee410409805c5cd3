// Time-zone abbreviations seen in incident write-ups, resolved to a UTC offset for the date they are used on.

/** Abbreviations that name one fixed offset (minutes east of UTC). */
const FIXED: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  UT: 0,
  EDT: -240,
  EST: -300,
  CDT: -300,
  CST: -360,
  MDT: -360,
  MST: -420,
  PDT: -420,
  PST: -480,
  AKDT: -480,
  AKST: -540,
  HST: -600,
  BST: 60,
  WET: 0,
  WEST: 60,
  CET: 60,
  CEST: 120,
  EET: 120,
  EEST: 180,
  JST: 540,
  KST: 540,
  SGT: 480,
  HKT: 480,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

/** Generic names that mean "whatever the clock says there", so the offset depends on the date (DST). */
const REGIONAL: Record<string, string> = {
  ET: 'America/New_York',
  CT: 'America/Chicago',
  MT: 'America/Denver',
  PT: 'America/Los_Angeles',
  Eastern: 'America/New_York',
  Central: 'America/Chicago',
  Mountain: 'America/Denver',
  Pacific: 'America/Los_Angeles',
};

/** The region a daylight/standard pair belongs to, to notice "EST" written on a summer date. */
const PAIR_REGION: Record<string, string> = {
  EDT: 'America/New_York',
  EST: 'America/New_York',
  CDT: 'America/Chicago',
  CST: 'America/Chicago',
  MDT: 'America/Denver',
  MST: 'America/Denver',
  PDT: 'America/Los_Angeles',
  PST: 'America/Los_Angeles',
  BST: 'Europe/London',
  CEST: 'Europe/Paris',
  CET: 'Europe/Paris',
  EEST: 'Europe/Athens',
  EET: 'Europe/Athens',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
  NZST: 'Pacific/Auckland',
  NZDT: 'Pacific/Auckland',
};

/** Offset (minutes east of UTC) of an abbreviation that names one fixed offset (RFC 822 dates: PST, EDT, GMT, Z). */
export function fixedZoneOffset(name: string): number | undefined {
  return Object.hasOwn(FIXED, name) ? FIXED[name] : undefined;
}

const NAMES = [...Object.keys(FIXED), ...Object.keys(REGIONAL)]
  .filter((name) => name !== 'Z')
  .sort((a, b) => b.length - a.length);

/** Matches a zone right after a time (case-sensitive: "et" in prose is not Eastern Time). */
export const ZONE_AFTER_TIME = new RegExp(
  `^(?:Z(?![A-Za-z0-9])|[ \\t]*\\(?(?:(?<offset>[+-]\\d\\d:?\\d\\d)|(?<iana>(?:US|America|Europe|Asia|Australia|Africa|Pacific|Atlantic|Etc)/[A-Za-z_]{2,30}(?:/[A-Za-z_]{2,30})?)|(?<name>${NAMES.join('|')})(?:[ \\t]*[Tt]ime)?(?<shift>[+-]\\d{1,2}(?::?\\d\\d)?)?)\\)?(?![A-Za-z0-9]))`,
);

const formatters = new Map<string, Intl.DateTimeFormat>();

const offsetCache = new Map<string, number>();

/** Offset (minutes east of UTC) of an IANA zone at a UTC instant; Intl is slow, and offsets only change on quarter hours. */
export function ianaOffset(zone: string, utcMs: number): number {
  const key = `${zone}|${Math.floor(utcMs / 900_000)}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const offset = computeOffset(zone, utcMs);
  if (offsetCache.size > 50_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

function computeOffset(zone: string, utcMs: number): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(utcMs)).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/** UTC instant of a wall-clock time in an IANA zone; in the repeated autumn hour the earlier (daylight) reading wins. */
function wallToUtc(zone: string, wallMs: number): number {
  const offsets = new Set([ianaOffset(zone, wallMs - 43_200_000), ianaOffset(zone, wallMs + 43_200_000)]);
  const candidates = [...offsets].map((offset) => wallMs - offset * 60_000);
  const valid = candidates.filter((utc) => wallMs - utc === ianaOffset(zone, utc) * 60_000).sort((a, b) => a - b);
  // A time inside the spring-forward gap does not exist; read it with the offset from before the change.
  return valid[0] ?? (candidates[0] as number);
}

export interface ZoneReading {
  utcMs: number;
  /** Set when the abbreviation does not fit the date (e.g. EST in July); the written one is still used. */
  mismatch?: string;
}

/** Converts a wall-clock time written with `zone` (as matched by ZONE_AFTER_TIME) to UTC. */
export function toUtc(wallMs: number, zone: string): ZoneReading {
  const offset = /^([+-])(\d\d):?(\d\d)$/.exec(zone);
  if (offset)
    return { utcMs: wallMs - (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000 };
  const shifted = /^(UTC|GMT)([+-])(\d{1,2})(?::?(\d\d))?$/.exec(zone);
  if (shifted)
    return {
      utcMs: wallMs - (shifted[2] === '-' ? -1 : 1) * (Number(shifted[3]) * 60 + Number(shifted[4] ?? 0)) * 60_000,
    };
  const region = REGIONAL[zone] ?? (zone.includes('/') && knownIana(zone) ? zone : undefined);
  if (region) return { utcMs: wallToUtc(region, wallMs) };
  const fixed = FIXED[zone];
  if (fixed === undefined) throw new Error(`unknown time zone "${zone}"`);
  const utcMs = wallMs - fixed * 60_000;
  const pair = PAIR_REGION[zone];
  if (pair && ianaOffset(pair, utcMs) !== fixed) {
    return {
      utcMs,
      mismatch: `${zone} is written for a date when ${pair} was on UTC${formatOffset(ianaOffset(pair, utcMs))}; read as ${zone} (UTC${formatOffset(fixed)}) as written`,
    };
  }
  return { utcMs };
}

const ianaKnown = new Map<string, boolean>();

/** Whether the runtime's time-zone data has this IANA name. */
function knownIana(name: string): boolean {
  let known = ianaKnown.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = true;
    } catch {
      known = false; // not a zone Intl knows: the time is read as if no zone were written
    }
    ianaKnown.set(name, known);
  }
  return known;
}

/** Canonical zone label from a ZONE_AFTER_TIME match. */
export function zoneLabel(match: RegExpExecArray): string {
  const groups = match.groups ?? {};
  if (groups.offset)
    return groups.offset.length === 5 ? `${groups.offset.slice(0, 3)}:${groups.offset.slice(3)}` : groups.offset;
  // An IANA name ("US/Pacific", as Google Cloud writes it) is kept when the runtime knows it.
  if (groups.iana) return knownIana(groups.iana) ? groups.iana : 'UTC';
  if (groups.name) return groups.shift ? `${groups.name === 'GMT' ? 'GMT' : 'UTC'}${groups.shift}` : groups.name;
  return 'Z';
}

export function isUtcZone(zone: string): boolean {
  return zone === 'UTC' || zone === 'GMT' || zone === 'Z' || zone === 'UT' || zone === '+00:00' || zone === '-00:00';
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : ''}`;
}
