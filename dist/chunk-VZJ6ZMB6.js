import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-GEQJ34AA.js";import"./chunk-NPDMPLWO.js";export{c as BASE_TRIALS_PER_HEAD_TRIAL,b as CONFIRMATION_GROWTH,a as DEFAULT_VERDICT_POLICY,d as FUTILITY_EFFECT,e as FUTILITY_RATIO};
