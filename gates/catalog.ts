/** Gate implementations by id (loaded inside the sandbox child only). One folder per gate. */
import { conservation } from "./conservation/index.js";
import type { Gate } from "./types.js";

export const catalog: Record<string, Gate> = {
  [conservation.id]: conservation,
};
