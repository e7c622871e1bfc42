// Names for contacts who arrive through the public API without one ("quiet-river-4821"), as
// Chatwoot names its anonymous visitors: agents can tell them apart and say them aloud.

const ADJECTIVES = [
  "amber", "autumn", "bold", "brave", "bright", "calm", "clever", "cool", "crimson", "damp", "dawn", "eager",
  "fancy", "gentle", "golden", "green", "hidden", "holy", "icy", "jolly", "kind", "lively", "lucky", "misty",
  "nimble", "odd", "patient", "plain", "proud", "quiet", "rapid", "red", "restless", "royal", "shy", "silent",
  "silver", "snowy", "solitary", "spring", "still", "summer", "sunny", "swift", "tiny", "twilight", "wandering",
  "warm", "wild", "winter", "wispy", "young",
] as const;

const NOUNS = [
  "bird", "breeze", "brook", "butterfly", "cloud", "dawn", "dew", "dream", "field", "fire", "firefly", "flower",
  "fog", "forest", "frog", "frost", "glade", "grass", "harbor", "haze", "hill", "lake", "leaf", "meadow", "moon",
  "morning", "mountain", "night", "paper", "pine", "pond", "rain", "resonance", "river", "sea", "shadow", "sky",
  "smoke", "snow", "sound", "star", "stone", "sun", "surf", "thunder", "tree", "violet", "water", "wave", "wind",
  "wood",
] as const;

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)]!;
}

/** "adjective-noun-NNNN" (the number 1000–9999). `random` is injectable for tests. */
export function randomContactName(random: () => number = Math.random): string {
  return `${pick(ADJECTIVES, random)}-${pick(NOUNS, random)}-${1000 + Math.floor(random() * 9000)}`;
}
