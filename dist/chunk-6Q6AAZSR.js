import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-QUZGGMSX.js";import"./chunk-NPDMPLWO.js";export{b as CONFIRMATION_GROWTH,a as DEFAULT_VERDICT_POLICY,c as FUTILITY_MIN_TRIALS,d as FUTILITY_P};
