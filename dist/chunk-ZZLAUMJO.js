import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-G2OB572H.js";import"./chunk-7YYJ4RBL.js";import"./chunk-2NTZGRJK.js";import"./chunk-NPDMPLWO.js";export{e as NO_CHILD,a as ObservationError,d as probeSession,c as schemaProblem,b as schemaValidator};
