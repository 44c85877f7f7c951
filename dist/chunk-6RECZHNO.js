import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e,f,g}from"./chunk-VY4EJ7IG.js";import"./chunk-CYERNGMK.js";import"./chunk-NPDMPLWO.js";export{d as DEFAULT_GATE_MEMORY_MB,c as DEFAULT_GATE_TIMEOUT_MS,a as GATE_IDS,e as freshSeed,b as isGateId,f as runGate,g as runGateSeeds};
