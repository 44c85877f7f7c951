import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-QZBJJMOK.js";import"./chunk-NPDMPLWO.js";export{c as BASE_TRIALS_PER_HEAD_TRIAL,b as CONFIRMATION_GROWTH,a as DEFAULT_VERDICT_POLICY,d as FUTILITY_EFFECT,f as FUTILITY_MIN_TRIALS,e as FUTILITY_RATIO};
