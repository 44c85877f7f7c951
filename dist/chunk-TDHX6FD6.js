import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var i="condition false";function a(e,r,t,n){return`${e}/${r}/${t}/${n}`}var u=["outcome","final-state","process"];var g=Object.freeze({inputTokens:0,outputTokens:0,costUsd:0});export{i as a,a as b,u as c,g as d};
