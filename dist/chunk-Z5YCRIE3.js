import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{f as a}from"./chunk-GZ4TMI53.js";import"./chunk-KLCHFWYS.js";import"./chunk-MMRSHGP6.js";import"./chunk-F7Z3SGNQ.js";import"./chunk-7UT3WTGO.js";import"./chunk-7IRCYMAJ.js";import"./chunk-NPDMPLWO.js";export{a as runPipeline};
