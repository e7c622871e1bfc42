// The scenarios npm run bench drives. Each names what it needs from the seeded account.

/** What `parley seed --json` prints: the ids and tokens the scenarios address. */
export interface SeedInfo {
  account_id: number;
  api_access_token: string;
  [key: string]: unknown;
}

export interface Scenario {
  name: string;
  /** Whether it needs the seeded database (health does not). */
  needsSeed: boolean;
  request(seed: SeedInfo): { path: string; method?: string; headers?: Record<string, string>; body?: string };
}

export const SCENARIOS: Scenario[] = [
  { name: "health", needsSeed: false, request: () => ({ path: "/health" }) },
];
