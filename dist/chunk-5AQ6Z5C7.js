import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{f as a}from"./chunk-2TEYORF7.js";import"./chunk-KLCHFWYS.js";import"./chunk-LKUPGDBP.js";import"./chunk-F7Z3SGNQ.js";import"./chunk-3NWHO2I5.js";import"./chunk-7IRCYMAJ.js";import"./chunk-NPDMPLWO.js";export{a as runPipeline};
