import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{b as a,c as b,d as c}from"./chunk-2TJUJC2T.js";import"./chunk-W6JCKT7J.js";import"./chunk-7IRCYMAJ.js";import"./chunk-NPDMPLWO.js";export{a as DEFAULTS,b as DEFAULT_AGENT,c as resolveSettings};
