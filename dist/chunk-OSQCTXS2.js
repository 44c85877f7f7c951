import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{b as a,c as b,d as c}from"./chunk-QTW3TOVB.js";import"./chunk-7UT3WTGO.js";import"./chunk-7IRCYMAJ.js";import"./chunk-NPDMPLWO.js";export{a as DEFAULTS,b as DEFAULT_AGENT,c as resolveSettings};
