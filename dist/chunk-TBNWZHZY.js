import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{j as a,k as b,l as c,m as d,n as e}from"./chunk-XUBNJI3B.js";import"./chunk-QZBJJMOK.js";import"./chunk-NPDMPLWO.js";export{a as EVIDENCE_MESSAGE_CHARS,d as evidenceDisagreements,c as recomputeDecisions,b as toEvidence,e as verdictDisagreements};
