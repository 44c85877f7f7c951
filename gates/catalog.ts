/** Gate implementations by id (loaded inside the sandbox child only). One folder per gate. */
import { boundary } from "./boundary/index.js";
import { conservation } from "./conservation/index.js";
import type { Gate } from "./types.js";

export const catalog: Record<string, Gate> = {
  [boundary.id]: boundary,
  [conservation.id]: conservation,
};
