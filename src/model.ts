// The data model shared by every stage of the pipeline (see DESIGN.md). Times are UTC ISO-8601 strings.

export type Ecosystem = 'npm' | 'terraform-provider' | 'terraform-resource' | 'terraform-module' | 'domain';

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
}

export interface ExposedComponent {
  name: string;
  region?: string;
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

export interface TimeWindow {
  from: string;
  to: string;
  source: string;
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
  source: string;
}

export interface ReplayWindow {
  from: string;
  /** null while the incident is still open. */
  to: string | null;
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
  replay: ReplayWindow;
}

export interface ReplayBand {
  from: string;
  to: string | null;
  providers: string[];
}
