import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d}from"./chunk-XUHSTMAB.js";import"./chunk-2NTZGRJK.js";import"./chunk-5IJG6MVX.js";import"./chunk-NPDMPLWO.js";export{d as NO_CHILD,a as ObservationError,b as observationValidator,c as probeSession};
