import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{i as a,j as b,k as c,l as d}from"./chunk-OAK7KLHH.js";import"./chunk-GEQJ34AA.js";import"./chunk-NPDMPLWO.js";export{a as EVIDENCE_MESSAGE_CHARS,d as evidenceDisagreements,c as recomputeDecisions,b as toEvidence};
