import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var s="condition false";function a(e,r,t,n){return`${e}/${r}/${t}/${n}`}var c=["outcome","final-state","process"];var m=Object.freeze({inputTokens:0,outputTokens:0,costUsd:0});export{s as a,a as b,c,m as d};
