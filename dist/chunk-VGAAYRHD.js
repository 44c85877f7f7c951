import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{i as a,j as b,k as c,l as d}from"./chunk-QUL5NW6M.js";import"./chunk-QZBJJMOK.js";import"./chunk-NPDMPLWO.js";export{a as EVIDENCE_MESSAGE_CHARS,d as evidenceDisagreements,c as recomputeDecisions,b as toEvidence};
