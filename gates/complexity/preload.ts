/**
 * Preloaded into the complexity gate's child with `--require`, before `--frozen-intrinsics` freezes the
 * built-ins: counting versions of the Array, Map and Set methods that hide work (comparator and callback
 * calls, elements scanned by indexOf/includes, elements moved or copied by unshift/splice/concat, Map and Set
 * operations). They stay installed for the child's life and count only while a counter is attached, so the
 * module can neither remove them nor count for itself. The child takes the attach function once, through a
 * global getter that deletes itself (`takeInstruments`), before the module loads.
 */

import { INSTRUMENTS_GLOBAL, installInstruments } from "./instruments.js";

const { instruments } = installInstruments();
let taken = false;
Object.defineProperty(globalThis, INSTRUMENTS_GLOBAL, {
  configurable: true,
  enumerable: false,
  get() {
    if (taken) return undefined;
    taken = true;
    delete (globalThis as Record<string, unknown>)[INSTRUMENTS_GLOBAL];
    return instruments;
  },
});
