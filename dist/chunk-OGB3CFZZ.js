import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-JJDYJF7F.js";import"./chunk-7YYJ4RBL.js";import"./chunk-2NTZGRJK.js";import"./chunk-NPDMPLWO.js";export{f as NO_CHILD,a as ObservationError,b as observationValidator,e as probeSession,d as schemaProblem,c as schemaValidator};
