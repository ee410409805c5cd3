// psl ships types, but its package.json `types` is not reachable through `exports` under NodeNext.
declare module 'psl' {
  export interface ParsedDomain {
    input: string;
    tld: string | null;
    sld: string | null;
    domain: string | null;
    subdomain: string | null;
    listed: boolean;
  }
  export interface ParseError {
    input: string;
    error: { code: string; message: string };
  }
  export function parse(domain: string): ParsedDomain | ParseError;
  export function get(domain: string): string | null;
  export function isValid(domain: string): boolean;
  const psl: { parse: typeof parse; get: typeof get; isValid: typeof isValid };
  export default psl;
}
