import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var o=Object.freeze({alpha:.01,inconclusive:"fail",preExisting:"report",maxConfirmationTrials:55,headOnly:"fail"}),e=1.2,t=4,r=.4,T=.1,i=10;export{o as a,e as b,t as c,r as d,T as e,i as f};
