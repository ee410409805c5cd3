// The data model shared by every stage of the pipeline (docs/architecture.md). Times are UTC ISO-8601 strings.

export type Ecosystem =
  | 'npm'
  | 'pypi'
  | 'go'
  | 'rubygems'
  | 'maven'
  | 'nuget'
  | 'composer'
  | 'cargo'
  /** A container image reference as written (`postgres:16`, `ghcr.io/acme/api@sha256:…`); its registry names the provider. */
  | 'container-image'
  /** A CI step's action (`actions/checkout@v4`) or a hosted runner label (`runs-on: ubuntu-latest`). */
  | 'ci-action'
  | 'terraform-provider'
  | 'terraform-resource'
  | 'terraform-module'
  | 'domain'
  /**
   * A deploy manifest's platform (vercel.json, render.yaml…): `name` is a catalog provider id, with the component after
   * a slash (`render/Web Services`).
   */
  | 'platform';

/**
 * One DNS fact behind a domain's provider. `SPF` is one `include:`/`redirect=` term of the name's SPF record (a TXT
 * record starting `v=spf1`); `ALIAS` is a provider's apex alias (Route 53 alias targets) that behaves like a CNAME.
 */
export type DnsRecordType = 'CNAME' | 'ALIAS' | 'NS' | 'MX' | 'TXT' | 'SPF' | 'A' | 'AAAA';

export interface DnsRecord {
  name: string;
  type: DnsRecordType;
  value: string;
}

/** How a package dependency is declared; `prod` for ordinary dependencies. */
export type DependencyKind = 'prod' | 'dev' | 'optional' | 'peer';

/**
 * How a dependency reaches the stack, best path first: `direct` (declared by a manifest of this repository, or
 * reached only through its own workspace or local packages; Terraform, domains, images, CI), `transitive` (only
 * through third-party packages' regular dependencies), `optional` (only through optional or peer edges), `dev` (only
 * through dev dependencies).
 */
export type Reach = 'direct' | 'transitive' | 'optional' | 'dev';

/** Best first: the order `--reach` widens in. */
export const REACH_ORDER: readonly Reach[] = ['direct', 'transitive', 'optional', 'dev'];

export interface Dependency {
  ecosystem: Ecosystem;
  name: string;
  version?: string;
  region?: string;
  file: string;
  line?: number;
  direct: boolean;
  /** Chain from the project root to this dependency, root first, this dependency last. */
  via: string[];
  kind?: DependencyKind;
  /** Set by lockfile readers from the graph; read through `reachOf` (src/reach.ts), which knows the defaults. */
  reach?: Reach;
  /** Workspace (package name or path) the dependency belongs to, for monorepos. */
  workspace?: string;
  /**
   * For a domain: the DNS answers that lead from `name` to a provider, in order (a CNAME chain, then the record that
   * matched). The last record is what the catalog matched; without it the name itself is matched.
   */
  dns?: DnsRecord[];
}

/** A per-line or per-block problem that did not stop the rest of the input from being read. */
export interface InputProblem {
  file: string;
  line?: number;
  message: string;
}

export interface InputResult {
  file: string;
  kind: string;
  dependencies: Dependency[];
  errors: InputProblem[];
  /** Scheduled jobs the input declares (CI crons, platform crons, CronJobs, cloud schedulers). */
  jobs?: ScheduledJob[];
  /**
   * Set for the lockfile of a workspace root above the scanned folder (`check apps/web` in a monorepo), read for the
   * folder's workspaces only: the file declaring the workspaces, and those read (folders relative to the lockfile's).
   */
  workspaceRoot?: { declaredIn: string; workspaces: string[] };
  /** A lockfile's root and workspace package names: the repository's own packages (kept out of the JSON). */
  ownPackages?: string[];
  /**
   * One per workspace and package, when `dependencies` lists some packages once for all workspaces (a check's
   * lockfiles, src/parsers/types.ts ParseOptions); unset when `dependencies` is the whole list. See dependencyCount().
   */
  dependencyCount?: number;
}

/** How many dependencies an input holds (the JSON's `inputs[].dependencies`), however they are listed. */
export function dependencyCount(input: Pick<InputResult, 'dependencies' | 'dependencyCount'>): number {
  return input.dependencyCount ?? input.dependencies.length;
}

/** Who runs a scheduled job; each kind reads its schedule its own way (src/jobs/kinds.ts). */
export type JobKind =
  | 'github-actions'
  | 'vercel-cron'
  | 'netlify-scheduled-function'
  | 'cloudflare-cron-trigger'
  | 'render-cron-job'
  | 'serverless-schedule'
  | 'kubernetes-cronjob'
  | 'azure-functions-timer'
  | 'aws-eventbridge-rule'
  | 'aws-scheduler-schedule'
  | 'google-cloud-scheduler'
  | 'azure-logic-app-recurrence';

/** One schedule found in one file. */
export interface ScheduledJob {
  name: string;
  kind: JobKind;
  file: string;
  line?: number;
  /** As written: `30 20 * * *`, `cron(0 12 * * ? *)`, `rate(5 minutes)`, `0 *\/5 * * * *` (NCRONTAB). */
  schedule: string;
  /** The IANA zone the schedule is read in (`UTC` where the scheduler has no other). */
  timeZone: string;
  /** First run of an interval schedule, when the file says (Logic Apps `start_time`, Scheduler `start_date`). */
  startsAt?: string;
  /** What the job's own file shows it reaches (hosts, images, Terraform targets); mapped through the catalog. */
  touches: Dependency[];
}

/** The runs of one job inside one replay band. */
export interface JobRuns {
  job: string;
  kind: JobKind;
  file: string;
  line?: number;
  schedule: string;
  timeZone: string;
  /** UTC times of the runs, at most a bounded number (`more` says when there were more). */
  at: string[];
  /** Runs inside the band: exact for anchored schedules, expected for unanchored intervals (`every`). */
  count: number;
  more: boolean;
  /** Unanchored interval (`rate(5 minutes)`): when the runs fall is not known, only how often. */
  every?: string;
  /** Providers the job runs on or reaches, per the catalog; those in the band's incidents come first. */
  providers: string[];
  /** Daylight-saving moves and skips, in words. */
  notes: string[];
}

export interface ExposedComponent {
  name: string;
  region?: string;
  /** The best reach among the component's evidence. */
  reach?: Reach;
  /** The dependencies that narrowed the exposure to this component (so a report can point at the right line). */
  evidence?: Dependency[];
}

export interface Exposure {
  provider: string;
  /** The components the evidence narrows to (with region when known). */
  components: ExposedComponent[];
  /** True when some evidence points at the provider as a whole (an SDK for everything, a bare domain). */
  wholeProvider?: boolean;
  /** Set when every piece of whole-provider evidence has a known region (a Terraform resource, a registry module). */
  wholeProviderRegions?: string[];
  evidence: Dependency[];
  /** Set when this exposure is inherited from a provider that runs on this one. */
  through?: string;
  /** True when every piece of evidence is a dev-only dependency. */
  devOnly: boolean;
  /** The best reach among the evidence (an upstream inherits the reach of the provider it runs under). */
  reach: Reach;
  /** The best reach of the evidence that points at the whole provider. */
  wholeProviderReach?: Reach;
  /** Only an SDK's auth, signing, transport or core packages: the stack talks to the provider, no component known. */
  helpersOnly?: boolean;
}

export type IncidentStatus =
  | 'investigating'
  | 'identified'
  | 'monitoring'
  | 'resolved'
  | 'postmortem'
  | 'scheduled'
  | 'in_progress'
  | 'verifying'
  | 'completed';

export type IncidentImpact = 'none' | 'minor' | 'major' | 'critical' | 'maintenance' | 'unknown';

export interface IncidentUpdate {
  at: string;
  status: string;
  body: string;
  components: string[];
}

/**
 * How far an incident's start can be trusted as the start of impact: `exact` (the provider states it as data: Google
 * Cloud's `begin`, a hand-checked postmortem), `from-text` (stated in the provider's words and read from them),
 * `upper-bound` (only when the status page first posted: impact began then or earlier).
 */
export type TimePrecision = 'exact' | 'upper-bound' | 'from-text';

export interface TimeWindow {
  from: string;
  to: string;
  source: string;
}

/** Why a reader believes something the source did not state as data: the sentence that names it. */
export interface TextEvidence {
  kind: 'component' | 'region';
  value: string;
  quote: string;
}

export interface Incident {
  provider: string;
  id: string;
  title: string;
  url: string;
  status: IncidentStatus;
  impact: IncidentImpact;
  /** Maintenance is kept apart from incidents and left out of findings by default. */
  kind?: 'incident' | 'maintenance';
  components: string[];
  regions: string[];
  startedAt: string;
  resolvedAt: string | null;
  updates: IncidentUpdate[];
  /** What the text says the impact really was, when that differs from the status page's open/close. */
  impactWindow?: TimeWindow;
  /** Upstream providers named as the root cause. */
  upstream?: string[];
  conflicts?: string[];
  /** Components and regions read from the text rather than from the source's own fields. */
  evidence?: TextEvidence[];
  /** Set by the bundled history and the snapshot; for other incidents it is read from their times (src/incidents/lead.ts). */
  timePrecision?: TimePrecision;
  source: string;
}

export interface ReplayWindow {
  from: string;
  /** null while the incident is still open. */
  to: string | null;
  /** Set when `from` was moved earlier than the status page's first post, which impact usually precedes. */
  lead?: AppliedLead;
}

export interface AppliedLead {
  /** When the status page first posted (the start the page gives). */
  postedAt: string;
  minutes: number;
  /** Where the figure comes from: `--lead`, or the platform whose history it was measured on. */
  basis: string;
}

export interface Finding {
  provider: string;
  incident: Incident;
  components: string[];
  active: boolean;
  /** "possibly": the incident is regional and the exposure's region is unknown. */
  confidence: 'certain' | 'possibly';
  through?: string;
  devOnly: boolean;
  /** How the touched components reach the stack (the best of them). */
  reach: Reach;
  replay: ReplayWindow;
}

export interface ReplayBand {
  from: string;
  to: string | null;
  providers: string[];
  /** The scheduled jobs that ran inside the band (absent where none did). */
  runs?: JobRuns[];
}
