import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var e="condition false";var o=["outcome","final-state","process"];var s=Object.freeze({inputTokens:0,outputTokens:0,costUsd:0});export{e as a,o as b,s as c};
