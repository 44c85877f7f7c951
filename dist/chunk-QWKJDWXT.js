import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
var o=30,e=Object.freeze({alpha:.01,inconclusive:"pass",preExisting:"report",maxConfirmationTrials:55,headOnly:"fail",baseDepth:30}),t=[1.8,4.4,12],r=[.05,.15,.3,.5],T=1.5,n=.4,_=.2,I=10,A=10;export{o as a,e as b,t as c,r as d,T as e,n as f,_ as g,I as h,A as i};
