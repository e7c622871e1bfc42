// Spanish: the same keys as the English table (src/web/lib/locales/en/).
import type { Key } from "../en/index.ts";
import { common } from "./common.ts";
import { settings } from "./settings.ts";

export const es: Record<Key, string> = { ...common, ...settings };
