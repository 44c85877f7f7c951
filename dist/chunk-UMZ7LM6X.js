import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var e="condition false";var t=["outcome","final-state","process"];var i=Object.freeze({inputTokens:0,outputTokens:0,costUsd:0});export{e as a,t as b,i as c};
