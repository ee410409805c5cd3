// @npmcli/arborist ships no types; downstack only builds a virtual tree from a lockfile.
declare module '@npmcli/arborist' {
  export default class Arborist {
    constructor(options: { path: string });
    loadVirtual(): Promise<unknown>;
  }
}
