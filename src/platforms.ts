// A deploy manifest (vercel.json, netlify.toml, render.yaml, railway.toml, firebase.json, Heroku's app.json) says
// which platform serves the app even when no package or host names it. The parsers say so with a `platform`
// dependency naming the catalog provider and component; test/parsers/platforms.test.ts holds every name here to the
// catalog, as test/jobs/kinds.test.ts does for the schedulers.
import type { Dependency } from './model.js';

/** `provider/Component` as the catalog spells them, or a provider id alone. */
export const PLATFORM = {
  vercelEdge: 'vercel/Edge Network',
  vercelBuilds: 'vercel/Builds',
  vercelFunctions: 'vercel/Vercel Functions',
  netlifyCdn: 'netlify/Content Delivery Network',
  netlifyBuilds: 'netlify/Builds',
  netlifyFunctions: 'netlify/Functions',
  netlifyEdgeFunctions: 'netlify/Edge Functions',
  renderWeb: 'render/Web Services',
  renderStatic: 'render/Static Sites',
  renderDeploys: 'render/Builds and Deploys',
  renderCron: 'render/Cron Jobs',
  renderPostgres: 'render/Render Postgres',
  renderKeyValue: 'render/Render Key Value',
  railwayDeployments: 'railway/Deployments',
  railwayNetworking: 'railway/Networking',
  firebaseHosting: 'firebase/Firebase Hosting',
  firebaseFunctions: 'firebase/Cloud Functions for Firebase',
  firebaseFirestore: 'firebase/Cloud Firestore',
  firebaseDatabase: 'firebase/Firebase Realtime Database',
  firebaseStorage: 'firebase/Cloud Storage for Firebase',
  herokuApps: 'heroku/Apps',
  herokuData: 'heroku/Data',
} as const;

export type PlatformTarget = (typeof PLATFORM)[keyof typeof PLATFORM];

/** The provider id and component a platform dependency names. */
export function platformTarget(name: string): { provider: string; component?: string } {
  const slash = name.indexOf('/');
  return slash < 0 ? { provider: name } : { provider: name.slice(0, slash), component: name.slice(slash + 1) };
}

/** One platform dependency, declared by the manifest itself (so direct), at the line that says it. */
export function platformDependency(
  target: PlatformTarget,
  file: string,
  line: number | undefined,
  options: { region?: string; via?: string } = {},
): Dependency {
  return {
    ecosystem: 'platform',
    name: target,
    ...(options.region ? { region: options.region } : {}),
    file,
    ...(line ? { line } : {}),
    direct: true,
    via: options.via ? [options.via, target] : [target],
  };
}

/** One dependency per target, region and naming entry (a service), in the order found. */
export function uniquePlatforms(dependencies: Dependency[]): Dependency[] {
  const seen = new Set<string>();
  return dependencies.filter((dependency) => {
    const key = `${dependency.name}\u0000${dependency.region ?? ''}\u0000${dependency.via.join('\u0000')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
