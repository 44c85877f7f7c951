import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var e=Object.freeze({alpha:.01,inconclusive:"fail",preExisting:"report",maxConfirmationTrials:55,headOnly:"fail"}),o=1.5,t=10,i=.5;export{e as a,o as b,t as c,i as d};
