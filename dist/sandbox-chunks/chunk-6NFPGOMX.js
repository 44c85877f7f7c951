import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
function a(e){return e.kind==="export"&&typeof e.value=="function"?{fn:e.value}:{failed:{checks:[{id:"export",passed:!1,message:`${e.kind==="export"?`export '${e.name}' is ${typeof e.value}`:`${e.path} is not code`}, not a function`}]}}}export{a};
