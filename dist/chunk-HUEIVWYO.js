import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
import{a,b,c,d,e,f}from"./chunk-F4LWVQGY.js";import"./chunk-NPDMPLWO.js";export{d as DEFAULT_BASE_DEPTH,a as DEFAULT_BUDGET,c as DEFAULT_CASE_PROMPTS,b as DEFAULT_COMPETITOR_PROMPTS,e as DEFAULT_VERDICT_POLICY,f as judgeModelOf};
