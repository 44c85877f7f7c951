import { createRequire as __skillgateCreateRequire } from 'node:module'; const require = __skillgateCreateRequire(import.meta.url);
function i(e){return`${e.file}:${e.line}:${e.column}: ${e.severity}: ${e.message}`}var r=class extends Error{constructor(t,o=[]){super(t);this.diagnostics=o;this.name="InputError"}diagnostics};export{i as a,r as b};
