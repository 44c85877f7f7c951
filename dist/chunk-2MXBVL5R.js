import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e}from"./chunk-MTWPTEYP.js";import"./chunk-3IS4AIQP.js";import"./chunk-TZA6JPXG.js";import"./chunk-NPDMPLWO.js";export{c as cellAlpha,d as cellBudget,e as labelSkip,a as matrixCells,b as resolveMatrix};
