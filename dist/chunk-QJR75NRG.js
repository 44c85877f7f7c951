import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{f as a}from"./chunk-IYQCL2DB.js";import"./chunk-KLCHFWYS.js";import"./chunk-VECVU2AO.js";import"./chunk-F7Z3SGNQ.js";import"./chunk-W6JCKT7J.js";import"./chunk-7IRCYMAJ.js";import"./chunk-NPDMPLWO.js";export{a as runPipeline};
